/**
 * The keyword-search terms of a text: the one tokenizer that both ingest (a chunk's tsvector)
 * and query (the question's terms) use, so a question matches a chunk exactly when they share
 * a term. Postgres's own parsers are not used: the `simple` configuration's parser splits
 * codes ("ZJAC00-2024-0001") and amounts ("47.9亿元") its own way and knows no Chinese, and
 * Chinese segmenters are extensions that neither Neon nor PGlite carry.
 *
 * - The text is first put in its index form (normaliseForIndex: NFKC, so "４７．９" is "47.9")
 *   and lower-cased.
 * - Chinese and Japanese have no spaces: each Han/kana character is a term, and so is each pair
 *   of adjacent characters (bigrams), so "就业补助" matches the question "就业补助资金" through
 *   就业, 业补, 补助 without a dictionary.
 * - Latin text, digits and other scripts are words. A code or number keeps its joiners
 *   ("zjac00-2024-0001", "2024/17", "47.9", "1,268") and is also split into its parts, so the
 *   whole matches as typed and a part still matches.
 * - A word or number directly against a Han character forms a bigram with it ("47.9亿", "12号"):
 *   an amount matches its unit, not just the digits.
 */
import { normaliseForIndex } from './normalise-for-index.ts';

/** A Han or kana character: a term of its own. CJK punctuation (〔〕，。) separates terms. */
const CJK_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
// A word character: a letter, digit or mark of any other script.
const W = String.raw`[^\s\p{P}\p{S}\p{Z}\p{C}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]`;
// Joiners inside a code or number; a comma only between digits (thousands), so "a,b" splits.
const JOINER = String.raw`(?:[-./_:](?=${W})|(?<=\d),(?=\d))`;
const UNIT = new RegExp(String.raw`(${CJK_LETTER.source})|(${W}+(?:${JOINER}${W}+)*)`, 'gu');
const JOINERS = /[-./_:,]/u;

/** Longer terms are dropped (a tsvector lexeme holds at most 2 KB; nobody types such a term). */
export const MAX_TERM_LENGTH = 100;
/** A question's terms are capped: the keyword query's size stays bounded. */
export const MAX_QUERY_TERMS = 128;

/** The distinct terms of `text`, in order of first appearance. */
export function searchTerms(text: string): string[] {
  const terms = new Set<string>();
  const add = (term: string) => {
    if (term.length > 0 && term.length <= MAX_TERM_LENGTH) terms.add(term);
  };
  const normalised = normaliseForIndex(text).toLowerCase();
  let previous: { text: string; end: number; cjk: boolean } | undefined;
  for (const match of normalised.matchAll(UNIT)) {
    const unit = match[0];
    const cjk = match[1] !== undefined;
    add(unit);
    if (!cjk) for (const part of partsOf(unit)) add(part);
    // Adjacent units with a Han/kana character among them: a bigram (two words never are).
    if (previous && previous.end === match.index && (cjk || previous.cjk)) {
      add(previous.text + unit);
    }
    previous = { text: unit, end: match.index + unit.length, cjk };
  }
  return [...terms];
}

/** A code's or number's parts, and a number without its thousands separators. */
function partsOf(word: string): string[] {
  if (!JOINERS.test(word)) return [];
  const parts = word.split(JOINERS).filter((part) => part.length > 0);
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/u.test(word)) parts.push(word.replaceAll(',', ''));
  return parts;
}

/** The terms of a question, at most MAX_QUERY_TERMS. */
export function queryTerms(text: string): string[] {
  return searchTerms(text).slice(0, MAX_QUERY_TERMS);
}

/**
 * A term as a quoted lexeme in Postgres's tsvector/tsquery text form: a quote is doubled and a
 * backslash escaped, so any term is read back exactly, never as an operator.
 */
export function quoteLexeme(term: string): string {
  return `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** The tsvector text of a chunk: its terms, no positions (presence is what is ranked). */
export function tsvectorText(text: string): string {
  return searchTerms(text).map(quoteLexeme).join(' ');
}
