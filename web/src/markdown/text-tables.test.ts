import { describe, expect, it } from 'vitest';
import { cellText, findTables, type Span } from './text-tables';

const read = (text: string, cells: Span[]) =>
  cells.map((cell) => cellText(text.slice(cell.start, cell.end)));

describe('findTables', () => {
  it('finds a pipe table in section text, and where each of its cells stands', () => {
    const text =
      '第五条 会议费综合定额标准如下表：\n\n' +
      '| 会议类别 | 住宿费（元/人天） | 合计 |\n| --- | --- | ---: |\n' +
      '| 一类会议 | 380 | 640 |\n| 二类会议 | 280 | 500 |\n\n第六条 报销。';
    const [table, more] = findTables(text);
    expect(more).toBeUndefined();
    expect(text.slice(table!.start, table!.end)).toBe(
      '| 会议类别 | 住宿费（元/人天） | 合计 |\n| --- | --- | ---: |\n' +
        '| 一类会议 | 380 | 640 |\n| 二类会议 | 280 | 500 |',
    );
    expect(read(text, table!.header)).toEqual(['会议类别', '住宿费（元/人天）', '合计']);
    expect(table!.rows.map((row) => read(text, row))).toEqual([
      ['一类会议', '380', '640'],
      ['二类会议', '280', '500'],
    ]);
    expect(table!.align).toEqual([null, null, 'right']);
  });

  it('reads an escaped pipe as part of its cell, and pads a short row as marked does', () => {
    const text = 'a | b\n-|-\nx \\| y | z\nonly';
    const [table] = findTables(text);
    expect(table!.rows.map((row) => read(text, row))).toEqual([
      ['x | y', 'z'],
      ['only', ''],
    ]);
  });

  it('finds no table in prose that has a pipe in it', () => {
    expect(findTables('选项 A | 选项 B 任选其一。\n下一行 | 也是正文。')).toEqual([]);
  });
});
