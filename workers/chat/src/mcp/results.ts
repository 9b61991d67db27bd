import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ChatCompletion } from '#shared/contracts/openai';
import type { FilePage, KnowledgeFile, QueryResult } from '#shared/contracts/knowledge';
import { AppError } from '#shared/errors/app-error';

// How each tool's answer reads: `structuredContent` for clients that take data, and the same
// as text in `content` for the model that called the tool (most clients show it only that).

type Passage = z.output<typeof QueryResult>;
type Completion = z.output<typeof ChatCompletion>;
type File = z.output<typeof KnowledgeFile>;
type Page = z.output<typeof FilePage>;

const result = (structured: Record<string, unknown>, text?: string): CallToolResult => ({
  content: [{ type: 'text', text: text ?? JSON.stringify(structured) }],
  structuredContent: structured,
});

/** search: the passages, best first. */
export function passagesResult(passages: readonly Passage[]): CallToolResult {
  return result({
    passages: passages.map((p) => ({
      file_id: p.file_id,
      file_name: p.file_name,
      collection_id: p.collection_id,
      page: p.page,
      chunk_id: p.id,
      heading_path: p.heading_path ?? p.section ?? null,
      similarity: p.similarity,
      text: p.content,
    })),
  });
}

/**
 * ask: the answer with the sources it cites (all it was given when it cites none), each
 * numbered as `[n]` in the answer, and the support of its sentences. A refusal (nothing
 * relevant enough) is the refusal text, marked as an error, with why.
 */
export function answerResult(completion: Completion): CallToolResult {
  const answer = completion.choices[0]?.message.content ?? '';
  if (completion.kbchat_refusal) {
    const { code, best_similarity, threshold } = completion.kbchat_refusal;
    return {
      ...result({ refusal: { code, best_similarity, threshold }, answer }, answer),
      isError: true,
    };
  }
  const numbered = completion.sources.map((source, index) => ({ source, number: index + 1 }));
  const cited = numbered.filter(({ source }) => source.citation != null);
  const citations = (cited.length > 0 ? cited : numbered).map(({ source, number }) => ({
    number,
    file_id: source.file_id,
    file_name: source.file_name,
    page: source.page,
    chunk_id: source.chunk_id ?? null,
    heading_path: source.heading_path ?? source.section ?? null,
    similarity: source.similarity,
  }));
  const structured = {
    answer,
    citations,
    support: completion.support ?? [],
    usage: completion.usage,
  };
  const lines = citations.map(
    (c) =>
      `[${c.number}] ${c.file_name}, p. ${c.page}` +
      (c.chunk_id !== null ? ` (chunk ${c.chunk_id})` : '') +
      ` — file ${c.file_id}`,
  );
  const text = lines.length > 0 ? `${answer}\n\nSources:\n${lines.join('\n')}` : answer;
  return result(structured, text);
}

/** list_files: one page of the list, and how many there are in all. */
export function filesResult(files: readonly File[], page: number, size: number): CallToolResult {
  const items = files.slice((page - 1) * size, page * size).map((file) => ({
    id: file.id,
    name: file.name,
    collection: file.collection,
    status: file.status,
    pages: file.pages,
    format: file.format,
    created_at: file.created_at,
    metadata: file.metadata ?? null,
    validity: file.validity ?? null,
  }));
  return result({ files: items, page, size, total: files.length });
}

/** read_page: the page's text. */
export function pageResult(page: Page): CallToolResult {
  const structured = {
    file_id: page.file_id,
    file_name: page.file_name,
    page: page.page,
    pages: page.pages,
    section: page.section,
    text_source: page.text_source,
    text: page.text,
  };
  return result(structured, page.text);
}

/**
 * A call that failed as a tool error the client's model can read: a refusal of the catalogue
 * (a file or collection the caller cannot read is the HTTP routes' not-found; a bad filter
 * 400; over the daily limits 429 with when they reset; knowledge away 503) with its code,
 * message and the problem's own members. Anything else is not the caller's to
 * see: a generic internal error (the caller logs the cause).
 */
export function errorResult(err: unknown): CallToolResult {
  const known = err instanceof AppError ? err : new AppError('internal_error');
  const error = {
    status: known.status,
    code: known.code,
    message: known.message,
    // A 429's `resets_at`, the fields a 400 names.
    ...known.members,
    ...(known.errors ? { errors: known.errors } : {}),
  };
  return { ...result({ error }, `${known.code}: ${known.message}`), isError: true };
}
