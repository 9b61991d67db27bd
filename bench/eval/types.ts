// The shapes of the retrieval evaluation's data: documents, questions and their labels.

export type Language = 'zh' | 'en';

/**
 * What a question tests. `exact`: amounts, codes, names or dates typed as in the text;
 * `keyword`: a rare term; `paraphrase`: the same meaning in other words; `plain`: an ordinary
 * question sharing words with its passage; `no_answer`: nothing in the corpus answers it.
 */
export const CATEGORIES = ['exact', 'keyword', 'paraphrase', 'plain', 'no_answer'] as const;
export type Category = (typeof CATEGORIES)[number];

/** A document of the evaluation corpus, uploaded as a PDF made by makeTextPdf. */
export interface EvalDocument {
  /** The uploaded file name; questions name their expected file by it. */
  fileName: string;
  title: string;
  language: Language;
  /** Page texts; index 0 is page 1. Paragraphs are separated by blank lines. */
  pages: readonly string[];
}

/** Where an answer is: one file, and the 1-based pages of it that answer (each on its own). */
export interface ExpectedPages {
  file: string;
  pages: readonly number[];
}

export interface EvalQuestion {
  /** Stable id, e.g. `zh-loan-plain-01`: results and reviews refer to it. */
  id: string;
  language: Language;
  category: Category;
  question: string;
  /** Every page that answers the question; empty for `no_answer`. */
  expected: readonly ExpectedPages[];
  /**
   * The answer-bearing text, verbatim: each string must appear on every expected page, and no
   * other page may hold all of them (else the labels miss a page). Empty for `no_answer`.
   */
  evidence: readonly string[];
  /** `no_answer` only: terms that must appear nowhere in the corpus (what is asked about). */
  absent?: readonly string[];
}
