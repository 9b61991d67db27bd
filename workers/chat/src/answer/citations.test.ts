import { describe, expect, it } from 'vitest';
import { citationAt, citedNumbers, citedPages } from './citations';

describe('citedPages', () => {
  const markers = ['[a.pdf p. 3]', '[a.pdf p. 30]', '[政策.pdf p. 1]', '[notes.md § Fees (2024)]'];

  it('finds the markers an answer cites, in the order it first cites them', () => {
    const answer =
      '1. Fees rose [notes.md § Fees (2024)].\n2. 补贴 [政策.pdf p. 1]\n3. Again [a.pdf p. 30]';
    expect(citedPages(answer, markers)).toEqual([3, 2, 1]);
  });

  it('does not read a page as another whose number starts with it', () => {
    expect(citedPages('see [a.pdf p. 30]', markers)).toEqual([1]);
    expect(citedPages('see [a.pdf p. 3]', markers)).toEqual([0]);
  });

  it('counts a citation of an excerpt marker; none cited → empty', () => {
    expect(citedPages('see [a.pdf p. 3 (excerpts)]', markers)).toEqual([0]);
    expect(citedPages("I don't know.", markers)).toEqual([]);
  });
});

describe('citedNumbers', () => {
  it('reads [2], [2][3], [1, 3], 【4】 and ranges, in the order of first citation', () => {
    expect(citedNumbers('A [2]. B [2][3]. C [1, 3]. D 【4】', 5)).toEqual([1, 2, 0, 3]);
    expect(citedNumbers('见[1-3]和[5，4]', 5)).toEqual([0, 1, 2, 4, 3]);
  });

  it('leaves out numbers naming no source, and document numbers in square brackets', () => {
    expect(citedNumbers('See [12] and [0].', 10)).toEqual([]);
    expect(citedNumbers('依据川办规[2025]6号 [2]', 10)).toEqual([1]);
  });
});

describe('citationAt', () => {
  it('reads page markers in files mode, with or without "(excerpts)"', () => {
    const markers = ['[a.pdf p. 3]', '[a.pdf p. 30]'];
    expect(citationAt('x [a.pdf p. 30 (excerpts)]', 2, markers)).toEqual({
      length: 24,
      numbers: [2],
    });
    expect(citationAt('[a.pdf p. 3]', 0, markers)?.numbers).toEqual([1]);
    expect(citationAt('[2]', 0, markers)).toBeUndefined();
  });
});
