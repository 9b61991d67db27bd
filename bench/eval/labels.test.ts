import { describe, expect, it } from 'vitest';
import { EVAL_DOCUMENTS } from './documents.ts';
import { checkLabels, comparable, type CorpusText } from './labels.ts';
import { answered, unanswered } from './question-builders.ts';
import { EVAL_QUESTIONS } from './questions.ts';
import { CATEGORIES } from './types.ts';

const source: CorpusText = new Map(EVAL_DOCUMENTS.map((d) => [d.fileName, d.pages]));

describe('the built-in question set', () => {
  it('has labels that hold for the source text of the corpus', () => {
    expect(checkLabels(EVAL_QUESTIONS, source)).toEqual([]);
  });

  it('has at least 150 questions, about half in each language, every category in both', () => {
    expect(EVAL_QUESTIONS.length).toBeGreaterThanOrEqual(150);
    for (const language of ['zh', 'en'] as const) {
      const mine = EVAL_QUESTIONS.filter((q) => q.language === language);
      expect(mine.length / EVAL_QUESTIONS.length).toBeGreaterThan(0.4);
      for (const category of CATEGORIES) {
        expect(mine.filter((q) => q.category === category).length).toBeGreaterThanOrEqual(10);
      }
    }
  });

  it('asks about every document', () => {
    const asked = new Set(EVAL_QUESTIONS.flatMap((q) => q.expected.map((e) => e.file)));
    expect([...asked].sort()).toEqual(EVAL_DOCUMENTS.map((d) => d.fileName).sort());
  });
});

describe('checkLabels', () => {
  const corpus: CorpusText = new Map([
    ['a.pdf', ['The fee is 640 euros a year.', 'Appeals go to the board within 21 days.']],
    ['b.pdf', ['个人创业担保贷款最高额度为30万元。', '原办法规定最高额度20万元。']],
  ]);

  it('accepts labels whose evidence is on the expected page and nowhere else', () => {
    const questions = [
      answered('en', 'ok-1', 'plain', 'What is the fee?', { file: 'a.pdf', pages: [1] }, [
        '640 euros',
      ]),
      answered('zh', 'ok-2', 'plain', '最高额度？', { file: 'b.pdf', pages: [1] }, [
        '最高额度为30万元',
      ]),
      unanswered('en', 'ok-3', 'What about parking?', ['parking']),
    ];
    expect(checkLabels(questions, corpus)).toEqual([]);
  });

  it('reports evidence missing from an expected page', () => {
    const wrongPage = answered('en', 'w', 'plain', 'Fee?', { file: 'a.pdf', pages: [2] }, [
      '640 euros',
    ]);
    expect(checkLabels([wrongPage], corpus)).toEqual([
      { question: 'w', problem: '"640 euros" is not on a.pdf p.2' },
      {
        question: 'w',
        problem: 'a.pdf p.1 also holds all the evidence: label it or narrow the evidence',
      },
    ]);
  });

  it('reports another page holding all the evidence (a missing label)', () => {
    const loose = answered('zh', 'l', 'plain', '最高额度？', { file: 'b.pdf', pages: [1] }, [
      '最高额度',
    ]);
    expect(checkLabels([loose], corpus)).toEqual([
      {
        question: 'l',
        problem: 'b.pdf p.2 also holds all the evidence: label it or narrow the evidence',
      },
    ]);
  });

  it('reports unknown files, pages beyond the end and empty labels', () => {
    const problems = checkLabels(
      [
        answered('en', 'f', 'plain', 'A?', { file: 'zzz.pdf', pages: [1] }, ['x']),
        answered('en', 'p', 'plain', 'B?', { file: 'a.pdf', pages: [3] }, ['x']),
        answered('en', 'e', 'plain', 'C?', [], []),
      ],
      corpus,
    ).map((p) => `${p.question}: ${p.problem}`);
    expect(problems).toEqual([
      'f: expected file zzz.pdf is not in the corpus',
      'p: a.pdf has no page 3',
      'e: no expected page',
      'e: no evidence text',
    ]);
  });

  it('reports a no_answer question whose subject the corpus mentions', () => {
    const problems = checkLabels([unanswered('en', 'n', 'Board?', ['BOARD'])], corpus);
    expect(problems).toEqual([
      { question: 'n', problem: '"BOARD" appears in a.pdf p.2: is the question answerable?' },
    ]);
  });

  it('reports duplicate ids and duplicate question texts', () => {
    const q = unanswered('en', 'd', 'Same?', ['nothing']);
    expect(checkLabels([q, q], corpus).map((p) => p.problem)).toEqual([
      'duplicate id',
      'the same question text appears twice',
    ]);
  });

  it('compares text as PDF extraction leaves it: whitespace, full-width forms and quotes', () => {
    expect(comparable('最高额度 为\n30万元（个人）')).toBe(comparable('最高额度为30万元(个人)'));
    expect(comparable('“青禾办” it’s')).toBe(comparable('"青禾办" it\'s'));
  });
});
