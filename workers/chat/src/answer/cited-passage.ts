import { normalise, termsOf, withoutLeadIn } from './support';

/** A page of a chosen file as the answer cites it: its text and its passages in that text. */
export interface CitedPage {
  text: string;
  /** The passage knowledge named for the page (its most similar chunk), if any. */
  chunk_id?: number | null | undefined;
  passages?: readonly { chunk_id: number; start: number; end: number }[] | undefined;
}

/**
 * The share of what the citing sentences say (terms, figures counted twice) a passage must
 * hold to be the one a citation opens. A passage sharing a word or two with a sentence is not
 * where it came from: a wrong passage highlighted misleads a reader who checks, where the
 * page opened whole only asks them to look.
 */
export const MIN_PASSAGE_SHARE = 0.4;

/**
 * The passage a citation of a page opens in the document viewer: the one of the page's passages
 * that holds most of what the sentences citing the page say (their terms, and their figures
 * counted twice: a figure names a passage better than a word), when it holds at least
 * MIN_PASSAGE_SHARE of it and more than any other passage. Otherwise the passage knowledge
 * named (in `retrieval` mode, the page's most similar to the question), or none: the viewer
 * then opens the page.
 */
export function citedPassage(page: CitedPage, sentences: readonly string[]): number | null {
  const named = page.chunk_id ?? null;
  const passages = page.passages ?? [];
  if (passages.length === 0 || sentences.length === 0) return named;
  const terms = new Set(sentences.flatMap((s) => [...termsOf(withoutLeadIn(s))]));
  const figures = new Set(sentences.flatMap(figuresIn));
  const whole = terms.size + 2 * figures.size;
  if (whole === 0) return named;
  const scored = passages.map(({ chunk_id, start, end }) => {
    const text = page.text.slice(start, end);
    const own = termsOf(text);
    const ownFigures = new Set(figuresIn(text));
    let score = 0;
    for (const term of terms) if (own.has(term)) score += 1;
    for (const figure of figures) if (ownFigures.has(figure)) score += 2;
    return { chunk_id, score };
  });
  const best = Math.max(...scored.map((s) => s.score));
  const leaders = scored.filter((s) => s.score === best);
  return best / whole >= MIN_PASSAGE_SHARE && leaders.length === 1 ? leaders[0]!.chunk_id : named;
}

/**
 * The numbers a text holds, as support.ts normalises them ("5,000元" and "5千元" are 5000), but
 * not an article's or chapter's own number (第三条, 第2章): every passage of a page has one.
 */
const figuresIn = (text: string) =>
  (
    normalise(text.replace(/第\s*[\d一二三四五六七八九十百零〇两]+\s*[条章节款项编]/gu, ' ')).match(
      /\d+(?:\.\d+)?/g,
    ) ?? []
  ).map((n) => String(Number(n)));
