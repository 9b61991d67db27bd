// node bench/eval/support.ts: how well chat's sentence support check (workers/chat/src/answer/
// support.ts) tells unsupported sentences from supported ones, offline and in a second.
//
// Correct answers are built from the eval's own labels: for each answered question, the
// sentence of its expected page that holds its evidence (with a lead-in of the answer's own,
// "根据文件，" / "Under the rules,"), and the evidence strings alone, joined; each answer cites
// [1], the expected page, with two pages of other documents retrieved beside it ([2], [3]). The
// offline model's answers are left out: it quotes passages verbatim, which would measure
// nothing. Each correct sentence is then corrupted in the ways a model goes wrong: a changed
// number, a changed date, a changed document number (or code), and a sentence invented for
// it (a sentence of another document, cited as if [1] said it). The checker should flag the
// corrupted sentences and leave the correct ones alone.
//
// Prints, per corruption kind and for a few term-share thresholds: precision and recall of the
// "unsupported" flags (positives: the corrupted sentences; negatives: the correct ones they
// came from), the false-flag rate on correct sentences, and the time the check takes on a long
// answer. Options: --json prints everything as JSON.
// The check is a pure function of text, with no route of its own to measure it through: it is
// imported as it is (it and its imports carry .ts extensions so that Node runs them).
// eslint-disable-next-line no-restricted-imports
import { checkSupport, MIN_TERM_SHARE } from '../../workers/chat/src/answer/support.ts';
import { EVAL_DOCUMENTS } from './documents.ts';
import { EVAL_QUESTIONS } from './questions.ts';
import type { EvalDocument, EvalQuestion } from './types.ts';

export const KINDS = ['number', 'date', 'document', 'invented', 'invented-same-file'] as const;
export type Kind = (typeof KINDS)[number];

export interface Case {
  question: string;
  language: 'zh' | 'en';
  /** Passages [1], [2], [3]: the expected page, then two pages of other documents. */
  passages: string[];
  /** Correct sentences, each citing [1]: near-verbatim, the evidence alone, the question restated. */
  correct: string[];
  /** Corrupted versions of the first correct sentence, by kind (absent when it has no such figure). */
  corrupted: Partial<Record<Kind, string>>;
}

const LEAD: Record<'zh' | 'en', string> = { zh: '根据文件，', en: 'Under the rules, ' };

/** The sentence of `page` around `at`: from the previous sentence end to the next. */
export function sentenceAround(page: string, at: number): string {
  const before = page.slice(0, at);
  const start = Math.max(
    ...['。', '！', '？', '；', '\n'].map((end) => before.lastIndexOf(end) + 1),
    ...[...before.matchAll(/[.!?]\s+/g)].map((m) => m.index + m[0].length),
    0,
  );
  const after = page.slice(at);
  const end = after.search(/[。！？；\n]|[.!?](?:\s|$)/);
  const sentence = page.slice(start, end < 0 ? page.length : at + end + 1).trim();
  // A line that starts with an article number (第三条) keeps it: it is the passage's text.
  return sentence.replace(/[；;]$/, '。');
}

/** The sentence's first number outside dates and document numbers, changed (5000 → 6000). */
export function changeNumber(sentence: string): string | undefined {
  const dated =
    /\d{4}年\d{1,2}月(?:\d{1,2}日)?|\d{1,2}月\d{1,2}日|〔\d{4}〕\d+号|\d{4}\/\d+|[A-Z]+[-\dA-Z]*\d|\d{1,2} [A-Z][a-z]+ \d{4}/g;
  const spans = [...sentence.matchAll(dated)].map((m) => [m.index, m.index + m[0].length]);
  for (const m of sentence.matchAll(/\d+(?:[.,]\d+)*/g)) {
    if (spans.some(([from, to]) => m.index >= from! && m.index < to!)) continue;
    const first = Number(m[0][0]);
    const changed = `${(first + 1) % 10 || 1}${m[0].slice(1)}`;
    return sentence.slice(0, m.index) + changed + sentence.slice(m.index + m[0].length);
  }
  return undefined;
}

/** The sentence's first date with its day (or month) changed: 2024年6月1日 → 2024年6月3日. */
export function changeDate(sentence: string): string | undefined {
  const forms: [RegExp, (m: RegExpExecArray) => string][] = [
    [/(\d{4})年(\d{1,2})月(\d{1,2})日/, (m) => `${m[1]}年${m[2]}月${shift(m[3]!)}日`],
    [/(\d{1,2})月(\d{1,2})日/, (m) => `${m[1]}月${shift(m[2]!)}日`],
    [/(\d{1,2}) ([A-Z][a-z]+) (\d{4})/, (m) => `${shift(m[1]!)} ${m[2]} ${m[3]}`],
    [/(\d{4})年(\d{1,2})月/, (m) => `${m[1]}年${(Number(m[2]) % 12) + 1}月`],
  ];
  for (const [re, changed] of forms) {
    const m = re.exec(sentence);
    if (m) return sentence.slice(0, m.index) + changed(m) + sentence.slice(m.index + m[0].length);
  }
  return undefined;
}

const shift = (day: string) => String(Number(day) >= 27 ? Number(day) - 2 : Number(day) + 2);

/** The sentence's first document number or code with its last number changed. */
export function changeDocument(sentence: string): string | undefined {
  const m = /〔\d{4}〕(\d+)号|\b\d{4}\/(\d+)\b|\b[A-Z][A-Z\d]*(?:-[A-Z\d]+)*-(\d+)\b/.exec(
    sentence,
  );
  if (!m) return undefined;
  const digits = m[1] ?? m[2] ?? m[3]!;
  const at = m.index + m[0].lastIndexOf(digits);
  const changed = String(Number(digits) + 1).padStart(digits.length, '0');
  return sentence.slice(0, at) + changed + sentence.slice(at + digits.length);
}

const pageOf = (file: string, page: number) =>
  EVAL_DOCUMENTS.find((d) => d.fileName === file)!.pages[page - 1]!;

/** The correct and corrupted answers of every answered question, deterministic. */
export function buildCases(
  questions: readonly EvalQuestion[] = EVAL_QUESTIONS,
  documents: readonly EvalDocument[] = EVAL_DOCUMENTS,
): Case[] {
  const cases: Case[] = [];
  questions.forEach((question, q) => {
    const where = question.expected[0];
    if (!where || question.evidence.length === 0) return;
    const page = pageOf(where.file, where.pages[0]!);
    const evidence = question.evidence[0]!;
    const sentence = sentenceAround(page, page.indexOf(evidence));
    const lead = LEAD[question.language];
    const correct = `${lead}${sentence}`;
    const joined =
      question.language === 'zh'
        ? `${question.evidence.join('，')}。`
        : `${question.evidence.join('; ')}.`;
    // The question restated before its evidence, as models often open an answer: its words
    // are the asker's, not the passage's, so this is the hard case for false flags.
    const restated =
      question.language === 'zh'
        ? `关于“${question.question.replace(/[？?]$/, '')}”，${question.evidence.join('，')}。`
        : `As to "${question.question.replace(/\?$/, '')}": ${question.evidence.join('; ')}.`;
    // Other documents of the same language, chosen by the question's position: stable runs.
    const others = documents.filter(
      (d) => d.language === question.language && d.fileName !== where.file,
    );
    const near = [others[q % others.length]!, others[(q + 1) % others.length]!];
    const passages = [page, near[0]!.pages[0]!, near[1]!.pages.at(-1)!];
    const invented = near[0]!.pages[q % near[0]!.pages.length]!.split(/\n+/)
      .map((line) => line.trim())
      .filter((line) => line.length > 20)
      .at(q % 2 === 0 ? 1 : -1);
    const corrupted: Partial<Record<Kind, string>> = {};
    const number = changeNumber(correct);
    if (number) corrupted.number = number;
    const date = changeDate(correct);
    if (date) corrupted.date = date;
    const changedDocument = changeDocument(correct);
    if (changedDocument) corrupted.document = changedDocument;
    if (invented) corrupted.invented = `${lead}${sentenceAround(invented, 0)}`;
    // On topic: a sentence of another page of the same document, which [1] does not hold.
    const document = documents.find((d) => d.fileName === where.file)!;
    const otherPage = document.pages.find((_, i) => !where.pages.includes(i + 1));
    const sameFile = otherPage
      ?.split(/\n+/)
      .map((line) => line.trim())
      .filter((line) => line.length > 20 && !page.includes(line))
      .at(q % 3);
    if (sameFile) corrupted['invented-same-file'] = `${lead}${sentenceAround(sameFile, 0)}`;
    // The other page stands in as [1]: passages [2] and [3] are not what it cites.
    passages[1] = near[1]!.pages[0]!;
    cases.push({
      question: question.id,
      language: question.language,
      passages,
      correct: [correct, joined, restated],
      corrupted,
    });
  });
  return cases;
}

/** One answer of one sentence, as the model writes it: a lead-in line, a numbered point. */
const answerOf = (sentence: string, language: 'zh' | 'en') =>
  `${language === 'zh' ? '根据所提供的资料：' : 'From the documents:'}\n1. ${sentence} [1]`;

/** True when the checker flags the (single) sentence of the answer unsupported. */
export function flagged(sentence: string, c: Case, minTermShare = MIN_TERM_SHARE): boolean {
  const support = checkSupport(answerOf(sentence, c.language), c.passages, undefined, {
    minTermShare,
  });
  return support.some((s) => !s.supported);
}

export interface Row {
  kind: Kind | 'all';
  corrupted: number;
  caught: number;
  /** Correct sentences of the same questions flagged. */
  falseFlags: number;
  correct: number;
  precision: number;
  recall: number;
}

/** The correct sentences' kinds, in the order of Case.correct. */
export const CORRECT = ['near-verbatim', 'evidence alone', 'question restated'] as const;

/** False flags per kind of correct sentence. */
export function falseFlags(cases: readonly Case[], minTermShare = MIN_TERM_SHARE) {
  return CORRECT.map((kind, i) => {
    const flags = cases.map((c) => flagged(c.correct[i]!, c, minTermShare));
    return { kind, flagged: flags.filter(Boolean).length, sentences: flags.length };
  });
}

export function score(cases: readonly Case[], minTermShare = MIN_TERM_SHARE): Row[] {
  const correctFlags = new Map(
    cases.map((c) => [c, c.correct.map((s) => flagged(s, c, minTermShare))]),
  );
  const row = (kind: Kind | 'all'): Row => {
    const kinds = kind === 'all' ? KINDS : [kind];
    const having = cases.filter((c) => kinds.some((k) => c.corrupted[k]));
    let corrupted = 0;
    let caught = 0;
    for (const c of having) {
      for (const k of kinds) {
        const sentence = c.corrupted[k];
        if (!sentence) continue;
        corrupted++;
        if (flagged(sentence, c, minTermShare)) caught++;
      }
    }
    const flags = having.flatMap((c) => correctFlags.get(c)!);
    const falseFlags = flags.filter(Boolean).length;
    return {
      kind,
      corrupted,
      caught,
      falseFlags,
      correct: flags.length,
      precision: caught + falseFlags === 0 ? 1 : caught / (caught + falseFlags),
      recall: corrupted === 0 ? 1 : caught / corrupted,
    };
  };
  return [...KINDS.map(row), row('all')];
}

/** Microseconds per check of a long answer: 40 sentences against 10 passages of ~500 characters. */
export function timeLongAnswer(cases: readonly Case[], runs = 200): number {
  const zh = cases.filter((c) => c.language === 'zh');
  const passages = zh.slice(0, 10).map((c) => c.passages[0]!.slice(0, 500));
  const answer = zh
    .slice(0, 40)
    .map((c, i) => `${i + 1}. ${c.correct[0]} [${(i % 10) + 1}]`)
    .join('\n');
  for (let i = 0; i < 20; i++) checkSupport(answer, passages);
  const start = performance.now();
  for (let i = 0; i < runs; i++) checkSupport(answer, passages);
  return ((performance.now() - start) * 1000) / runs;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function main() {
  const cases = buildCases();
  const thresholds = [0.4, 0.5, MIN_TERM_SHARE, 0.7, 0.8].filter(
    (t, i, all) => all.indexOf(t) === i,
  );
  const results = thresholds.map((t) => ({
    threshold: t,
    rows: score(cases, t),
    correct: falseFlags(cases, t),
  }));
  const micros = timeLongAnswer(cases);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ cases: cases.length, results, micros }, null, 2));
    return;
  }
  console.log(`${cases.length} answered questions, ${cases.length * 3} correct sentences\n`);
  for (const { threshold, rows, correct } of results) {
    const mark = threshold === MIN_TERM_SHARE ? ' (the checker’s)' : '';
    console.log(`term share ≥ ${threshold}${mark}`);
    console.log('kind                corrupted  caught  precision  recall  false flags on correct');
    for (const r of rows) {
      console.log(
        `${r.kind.padEnd(19)} ${String(r.corrupted).padStart(9)} ${String(r.caught).padStart(7)}  ${pct(r.precision).padStart(9)}  ${pct(r.recall).padStart(6)}  ${r.falseFlags}/${r.correct} = ${pct(r.falseFlags / r.correct)}`,
      );
    }
    for (const f of correct) {
      console.log(
        `  correct, ${f.kind}: ${f.flagged}/${f.sentences} flagged = ${pct(f.flagged / f.sentences)}`,
      );
    }
    console.log('');
  }
  console.log(`a 40-sentence answer against 10 passages: ${micros.toFixed(0)} µs per check`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
