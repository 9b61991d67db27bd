import { describe, expect, it } from 'vitest';
import {
  MAX_QUERY_TERMS,
  queryTerms,
  quoteLexeme,
  searchTerms,
  tsvectorText,
} from './search-terms';

describe('searchTerms', () => {
  it('indexes Chinese as single characters and bigrams', () => {
    expect(searchTerms('就业补助')).toEqual(['就', '业', '就业', '补', '业补', '助', '补助']);
  });

  it('keeps a code whole, lower-cased, and also gives its parts', () => {
    const terms = searchTerms('编号ZJAC00-2024-0001。');
    expect(terms).toContain('zjac00-2024-0001');
    expect(terms).toEqual(expect.arrayContaining(['zjac00', '2024', '0001']));
    expect(terms).not.toContain('。');
  });

  it('binds an amount to its Chinese unit', () => {
    const terms = searchTerms('资金47.9亿元');
    expect(terms).toEqual(expect.arrayContaining(['47.9', '47.9亿', '亿元', '金47.9']));
    expect(terms).not.toContain('47.9亿元');
  });

  it('matches full-width digits and letters as typed in half-width (NFKC)', () => {
    expect(searchTerms('４７．９亿元')).toEqual(searchTerms('47.9亿元'));
    expect(searchTerms('ＺＪＡＣ００-2024')).toEqual(searchTerms('zjac00-2024'));
  });

  it('matches a document typeset with spread characters', () => {
    expect(searchTerms('创 业 担 保 贷 款')).toEqual(searchTerms('创业担保贷款'));
  });

  it('treats Latin text as words, never as bigrams', () => {
    expect(searchTerms('The refund, within 19 euros.')).toEqual([
      'the',
      'refund',
      'within',
      '19',
      'euros',
    ]);
  });

  it('keeps thousands separators and also the plain number', () => {
    expect(searchTerms('1,268 fines')).toEqual(['1,268', '1', '268', '1268', 'fines']);
    expect(searchTerms('apples,pears')).toEqual(['apples', 'pears']);
  });

  it('keeps regulation numbers and dates whole', () => {
    expect(searchTerms('Regulation 2024/17')).toEqual(
      expect.arrayContaining(['regulation', '2024/17', '2024', '17']),
    );
    expect(searchTerms('2024-03-01')).toContain('2024-03-01');
  });

  it('splits on CJK punctuation: no bigram across 〔〕', () => {
    const terms = searchTerms('青人社发〔2024〕12号');
    expect(terms).toEqual(expect.arrayContaining(['社发', '2024', '12号']));
    expect(terms.some((t) => t.includes('〔') || t.includes('发2024'))).toBe(false);
  });

  it('gives nothing for punctuation and symbols alone', () => {
    expect(searchTerms('？！… — %$')).toEqual([]);
  });

  it('drops absurdly long terms and caps the terms of a question', () => {
    expect(searchTerms('x'.repeat(101))).toEqual([]);
    const many = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    expect(queryTerms(many)).toHaveLength(MAX_QUERY_TERMS);
  });

  it('is the same for a chunk and a question with the same text', () => {
    const text = '追回违规资金1268万元 (Regulation 2024/17)';
    expect(queryTerms(text)).toEqual(searchTerms(text));
  });
});

describe('quoting for Postgres', () => {
  it('quotes lexemes so that operators and quotes stay text', () => {
    expect(quoteLexeme("o'neil")).toBe("'o''neil'");
    expect(quoteLexeme('a\\b')).toBe("'a\\\\b'");
    expect(quoteLexeme('&|!')).toBe("'&|!'");
  });

  it('writes a tsvector text of the terms', () => {
    expect(tsvectorText('Fee 19')).toBe("'fee' '19'");
  });
});
