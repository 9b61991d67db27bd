// Compact constructors for the question data files, so each question reads as one line of
// facts: id, category, question, where the answer is, the answer-bearing text.
import type { Category, EvalQuestion, ExpectedPages, Language } from './types.ts';

type AnswerableCategory = Exclude<Category, 'no_answer'>;

/** A question answered on `pages` of `file` (each page on its own). */
export function answered(
  language: Language,
  id: string,
  category: AnswerableCategory,
  question: string,
  where: { file: string; pages: number[] } | ExpectedPages[],
  evidence: string[],
): EvalQuestion {
  return {
    id,
    language,
    category,
    question,
    expected: Array.isArray(where) ? where : [where],
    evidence,
  };
}

/** A question nothing in the corpus answers; `absent` are the terms the corpus never uses. */
export function unanswered(
  language: Language,
  id: string,
  question: string,
  absent: string[],
): EvalQuestion {
  return { id, language, category: 'no_answer', question, expected: [], evidence: [], absent };
}
