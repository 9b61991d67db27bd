import { describe, expect, it } from 'vitest';
import { findMarkdownTables, markdownTable, tableCell } from './markdown-table';

describe('markdownTable', () => {
  it('writes a header, a delimiter row and rows as wide as the widest, cells on one line', () => {
    expect(markdownTable(['名称', '金额'], [['a|b', ' 1\n 2 '], ['only'], []])).toEqual([
      '| 名称 | 金额 |',
      '| --- | --- |',
      '| a\\|b | 1 2 |',
      '| only | |',
      '| | |',
    ]);
    expect(tableCell('  x \t y  ')).toBe('x y');
  });
});

describe('findMarkdownTables', () => {
  it('finds GFM tables: a piped line, a delimiter row of as many cells, the lines up to a blank one', () => {
    const lines = [
      'text',
      '| a | b |',
      '| --- | :-: |',
      '| 1 | 2 |',
      '3 | 4',
      '',
      'x | y',
      '---|---',
      'a | b | c',
      '--- | ---',
      '| 1 |',
      '|---|',
    ];
    expect(findMarkdownTables(lines)).toEqual([
      { header: 1, last: 4 },
      { header: 6, last: 11 },
    ]);
    // A delimiter row without a pipe is a thematic break; one cell short is no table.
    expect(findMarkdownTables(['a | b', '---', 'c'])).toEqual([]);
    expect(findMarkdownTables(['a \\| b | c', '--- | ---'])).toEqual([{ header: 0, last: 1 }]);
    expect(findMarkdownTables(['a \\| b', '--- | ---'])).toEqual([]);
  });
});
