import { normalise, termsOf, withoutLeadIn } from './support';

/** A page of a chosen file as the answer cites it: its text and its passages in that text. */
export interface CitedPage {
  text: string;
  /** The passage knowledge named for the page (its most similar chunk), if any. */
  chunk_id?: number | null | undefined;
  passages?: readonly { chunk_id: number; start: number; end: number }[] | undefined;
}

/**
 * The passage a citation of a page opens in the document viewer: the one of the page's passages
 * that holds most of what the sentences citing the page say (their terms, and their figures
 * counted twice: a figure names a passage better than a word). Ties keep the passage knowledge
 * named, else the first in reading order. Without a passage holding anything of the
 * sentences, the one knowledge named, or none (the viewer then opens the page).
 */
export function citedPassage(page: CitedPage, sentences: readonly string[]): number | null {
  const fallback = page.chunk_id ?? null;
  const passages = page.passages ?? [];
  if (passages.length === 0 || sentences.length === 0) return fallback;
  const terms = new Set(sentences.flatMap((s) => [...termsOf(withoutLeadIn(s))]));
  const figures = new Set(sentences.flatMap(figuresIn));
  let best: { chunk_id: number; score: number } | undefined;
  for (const passage of passages) {
    const text = page.text.slice(passage.start, passage.end);
    const own = termsOf(text);
    const ownFigures = new Set(figuresIn(text));
    let score = 0;
    for (const term of terms) if (own.has(term)) score += 1;
    for (const figure of figures) if (ownFigures.has(figure)) score += 2;
    const better =
      !best ||
      score > best.score ||
      (score === best.score && passage.chunk_id === fallback && best.chunk_id !== fallback);
    if (better) best = { chunk_id: passage.chunk_id, score };
  }
  return best && best.score > 0 ? best.chunk_id : fallback;
}

/** The numbers a text holds, as support.ts normalises them ("5,000元" and "5千元" are 5000). */
const figuresIn = (text: string) =>
  (normalise(text).match(/\d+(?:\.\d+)?/g) ?? []).map((n) => String(Number(n)));
