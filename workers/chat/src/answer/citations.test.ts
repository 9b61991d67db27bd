import { describe, expect, it } from 'vitest';
import { citedPages } from './citations';

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
