import type { z } from 'zod';
import type { ChatContext, ContextPage } from '#shared/contracts/knowledge';
import { knowledgeDb, type KnowledgeCall } from '../call';
import {
  filesWithTextIfWithin,
  nearestChunksWithPages,
  type ChunkOnPage,
  type PagePassage,
} from '../store/chat-context';
import { embedQuestion } from './query';
import { meteredSearch } from '../usage/metered-search';

type Page = z.output<typeof ContextPage>;

/**
 * The chosen files' text for a chat prompt. Whole when it fits `max_chars` (the question is not
 * even embedded then); else the pages of the `top` nearest chunks, best first while they fit.
 * Any logged-in user may read any ready file: the same rule as list and download.
 */
export async function chatContext(
  params: { text: string; file_id?: string[]; max_chars: number; top: number },
  ctx: KnowledgeCall,
): Promise<z.output<typeof ChatContext>> {
  const kdb = knowledgeDb(ctx);
  const ids = params.file_id ?? []; // the contract refuses an empty list
  const whole = await filesWithTextIfWithin(kdb, ids, params.max_chars);
  const names = new Map(whole.files.map((f) => [f.id, f.name]));
  const base = { files: whole.files, total_chars: whole.totalChars };
  if (whole.files.length === 0) return { mode: 'full', ...base, pages: [] };
  if (whole.pages) {
    return {
      mode: 'full',
      ...base,
      pages: whole.pages.map((p) => ({
        ...p,
        file_name: names.get(p.file_id) ?? '',
        similarity: null,
        chunk_id: null,
        excerpt: false,
      })),
    };
  }
  // Only a context that embeds the question is limited and metered (over HTTP: chat counts its
  // own), under the chosen files' collection: files that fit whole cost no tokens.
  const collectionIds = [...new Set(whole.files.map((f) => f.collection.id))];
  const vector = await meteredSearch(ctx, { text: params.text, collectionIds }, () =>
    embedQuestion(params.text, ctx),
  );
  const matches = await nearestChunksWithPages(
    kdb,
    vector,
    whole.files.map((f) => f.id),
    params.top,
  );
  const pages = pagesWithin(matches, params.max_chars);
  const order = new Map(ids.map((id, i) => [id, i]));
  pages.sort(
    (a, b) => (order.get(a.file_id) ?? 0) - (order.get(b.file_id) ?? 0) || a.page - b.page,
  );
  return { mode: 'retrieval', ...base, pages };
}

/**
 * Pages by their best chunk's similarity (whose id they carry), each whole while it fits what is left of the budget.
 * A page too long for that is given as its retrieved chunks (each whole) when they fit, and
 * marked `excerpt`; nothing is ever cut mid-page without saying so.
 */
export function pagesWithin(matches: readonly ChunkOnPage[], maxChars: number): Page[] {
  const byPage = new Map<string, { best: ChunkOnPage; chunks: ChunkOnPage[] }>();
  for (const match of matches) {
    const key = `${match.file_id}:${match.page}`;
    const entry = byPage.get(key);
    if (entry) entry.chunks.push(match);
    else byPage.set(key, { best: match, chunks: [match] });
  }
  const chosen: Page[] = [];
  let left = maxChars;
  // Matches come best first, so the map's insertion order is the pages' order of relevance.
  for (const { best, chunks } of byPage.values()) {
    const page = {
      file_id: best.file_id,
      file_name: best.file_name,
      page: best.page,
      section: best.section,
      text_source: best.text_source,
      similarity: best.similarity,
      // The passage a citation of this page opens in the document viewer.
      chunk_id: best.id,
    };
    const whole = [...best.page_text].length;
    if (whole <= left) {
      chosen.push({ ...page, text: best.page_text, excerpt: false, passages: best.page_passages });
      left -= whole;
      continue;
    }
    const { text, passages } = excerptOf(chunks);
    const size = [...text].length;
    if (size <= left) {
      chosen.push({ ...page, text, excerpt: true, passages });
      left -= size;
    }
  }
  return chosen;
}

const GAP = '\n…\n';

/** A page's retrieved chunks joined in reading order, each one's place in the joined text. */
function excerptOf(chunks: ChunkOnPage[]): { text: string; passages: PagePassage[] } {
  const passages: PagePassage[] = [];
  let text = '';
  for (const chunk of [...chunks].sort((a, b) => a.id - b.id)) {
    if (text) text += GAP;
    passages.push({
      chunk_id: chunk.id,
      start: text.length,
      end: text.length + chunk.content.length,
    });
    text += chunk.content;
  }
  return { text, passages };
}
