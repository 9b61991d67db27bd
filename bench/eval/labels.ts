// Checks that the question labels match the corpus text, so they cannot silently rot when a
// document or a question changes: the answer-bearing text of each question is on each of its
// expected pages and on no other page, and what a no_answer question asks about is nowhere.
import type { EvalQuestion } from './types.ts';

/** File name → its page texts (index 0 is page 1): the source text or what the service stored. */
export type CorpusText = ReadonlyMap<string, readonly string[]>;

export interface LabelProblem {
  question: string;
  problem: string;
}

/**
 * Text as compared: NFKC (full-width forms fold), one kind of quote, no whitespace at all. PDF
 * text extraction re-wraps lines and may put spaces between CJK characters or around a change
 * of font; none of that should decide whether a label holds.
 */
export function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[“”„‟"]/g, '"')
    .replace(/[‘’`']/g, "'")
    .replace(/\s+/gu, '');
}

export function checkLabels(
  questions: readonly EvalQuestion[],
  corpus: CorpusText,
): LabelProblem[] {
  const problems: LabelProblem[] = [];
  const pages = [...corpus].flatMap(([file, texts]) =>
    texts.map((text, index) => ({ file, page: index + 1, text: comparable(text) })),
  );
  const seenIds = new Set<string>();
  const seenTexts = new Set<string>();
  for (const q of questions) {
    const report = (problem: string) => problems.push({ question: q.id, problem });
    if (seenIds.has(q.id)) report('duplicate id');
    seenIds.add(q.id);
    if (seenTexts.has(q.question)) report('the same question text appears twice');
    seenTexts.add(q.question);

    if (q.category === 'no_answer') {
      if (q.expected.length > 0 || q.evidence.length > 0) {
        report('a no_answer question has expected pages or evidence');
      }
      if (!q.absent?.length) report('a no_answer question names no absent terms');
      for (const term of q.absent ?? []) {
        const wanted = comparable(term).toLowerCase();
        for (const p of pages) {
          if (p.text.toLowerCase().includes(wanted)) {
            report(`"${term}" appears in ${p.file} p.${p.page}: is the question answerable?`);
          }
        }
      }
      continue;
    }

    if (q.expected.length === 0) report('no expected page');
    if (q.evidence.length === 0) report('no evidence text');
    const evidence = q.evidence.map(comparable);
    const expected = new Set<string>();
    for (const { file, pages: numbers } of q.expected) {
      const texts = corpus.get(file);
      if (!texts) {
        report(`expected file ${file} is not in the corpus`);
        continue;
      }
      if (numbers.length === 0) report(`no page given for ${file}`);
      for (const page of numbers) {
        expected.add(`${file}#${page}`);
        const text = texts[page - 1];
        if (text === undefined) {
          report(`${file} has no page ${page}`);
          continue;
        }
        const onPage = comparable(text);
        q.evidence.forEach((raw, i) => {
          if (!onPage.includes(evidence[i]!)) report(`"${raw}" is not on ${file} p.${page}`);
        });
      }
    }
    // Another page with all of the evidence answers too: the labels would miss it.
    for (const p of pages) {
      if (expected.has(`${p.file}#${p.page}`)) continue;
      if (evidence.length > 0 && evidence.every((e) => p.text.includes(e))) {
        report(
          `${p.file} p.${p.page} also holds all the evidence: label it or narrow the evidence`,
        );
      }
    }
  }
  return problems;
}

/** The corpus as the service stored it: `/list?with_content=true` joins pages with form feeds. */
export function pagesOfStoredContent(content: string): string[] {
  return content.split('\f');
}
