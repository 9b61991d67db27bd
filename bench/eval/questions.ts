// The evaluation's question set: Chinese and English, about half each.
import { EN_QUESTIONS } from './questions-en.ts';
import { ZH_QUESTIONS } from './questions-zh.ts';
import type { EvalQuestion } from './types.ts';

export const EVAL_QUESTIONS: readonly EvalQuestion[] = [...ZH_QUESTIONS, ...EN_QUESTIONS];
