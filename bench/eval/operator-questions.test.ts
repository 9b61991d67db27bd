import { describe, expect, it } from 'vitest';
import { operatorItems, unknownLocations } from './operator-questions.ts';

describe('operatorItems', () => {
  it('accepts the documented shapes and fills ids, categories and languages', () => {
    const items = operatorItems([
      { question: 'What is the fee?', expected: { file_name: 'a.pdf', page: 2 } },
      { question: '最高额度是多少？', expected: [{ file_id: 'f-1', page: [1, 3] }] },
      { id: 'x', question: 'Anything on parking?', expected: null, category: 'hard' },
      { question: 'Where is it?', expected: { file_name: 'a.pdf' } },
      { question: 'Unrelated?' },
    ]);
    expect(items).toEqual([
      {
        id: 'q1',
        language: 'en',
        category: 'answerable',
        question: 'What is the fee?',
        expected: [{ file_name: 'a.pdf', pages: [2] }],
      },
      {
        id: 'q2',
        language: 'zh',
        category: 'answerable',
        question: '最高额度是多少？',
        expected: [{ file_id: 'f-1', pages: [1, 3] }],
      },
      { id: 'x', language: 'en', category: 'hard', question: 'Anything on parking?', expected: [] },
      {
        id: 'q4',
        language: 'en',
        category: 'answerable',
        question: 'Where is it?',
        expected: [{ file_name: 'a.pdf' }],
      },
      { id: 'q5', language: 'en', category: 'no_answer', question: 'Unrelated?', expected: [] },
    ]);
  });

  it('names each invalid field', () => {
    expect(() =>
      operatorItems([
        { question: '', expected: { file_name: 'a.pdf' } },
        { question: 'Q?', expected: { file_name: 'a.pdf', file_id: 'f' } },
        { question: 'Q?', expected: { file_name: 'a.pdf', page: 0 } },
      ]),
    ).toThrow(/\[0\.question\][\s\S]*\[1\.expected\][\s\S]*\[2\.expected\.page\]/);
    expect(() => operatorItems([])).toThrow(/not valid/);
    expect(() => operatorItems({ question: 'Q?' })).toThrow(/not valid/);
  });
});

describe('unknownLocations', () => {
  const files = [{ id: 'f-1', name: 'a.pdf', pages: 3, chunks: 9 }];

  it('reports files the service does not hold and pages past the end', () => {
    const items = operatorItems([
      { question: 'A?', expected: { file_name: 'a.pdf', page: 3 } },
      { question: 'B?', expected: { file_name: 'b.pdf' } },
      { question: 'C?', expected: { file_id: 'f-1', page: [2, 4] } },
    ]);
    expect(unknownLocations(items, files)).toEqual([
      'q2: the service holds no file b.pdf',
      'q3: f-1 has 3 pages, not page 4',
    ]);
  });
});
