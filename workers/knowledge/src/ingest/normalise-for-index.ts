/**
 * The form of a text that indexing uses (embeddings, keyword search), never the form that is
 * stored and shown: Unicode compatibility forms folded (NFKC: full-width "５０００元" and
 * "ＡＢＣ" become "5000元" and "ABC", ligatures "ﬁ" become "fi", the ideographic space a
 * space), whitespace collapsed to single spaces, and no space left between two CJK characters.
 * A query normalised the same way then matches however the document was typeset.
 */
import { removeCjkSpacing } from './cjk-spacing.ts';

export function normaliseForIndex(text: string): string {
  const folded = text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  return removeCjkSpacing(folded);
}
