import { render, screen, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../i18n/locale';
import { TextPage } from './text-page';

// Section 5 of huiyi-2025.html as the service reads it: the table as a Markdown pipe table.
const INTRO = '第五条 会议费开支实行综合定额控制。会议费综合定额标准如下表：\n\n';
const TABLE =
  '| 会议类别 | 住宿费（元/人天） | 合计（元/人天） |\n| --- | --- | --- |\n' +
  '| 一类会议 | 380 | 640 |\n| 二类会议 | 280 | 500 |\n| 三类会议 | 240 | 440 |';
const TEXT = `${INTRO}${TABLE}\n\n第六条 会议召开单位应当在会议结束后一个月内办理报销。`;

const rowTexts = (table: HTMLElement) =>
  [...table.querySelectorAll('tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
  );

describe('TextPage', () => {
  beforeEach(() => setLocale('zh'));

  it('shows a pipe table in the text as a table that scrolls in its own box', () => {
    render(<TextPage text={TEXT} onShown={() => undefined} />);
    const box = screen.getByRole('region', { name: '表格（可横向滚动）' });
    const table = within(box).getByRole('table');
    expect(rowTexts(table)).toEqual([
      ['会议类别', '住宿费（元/人天）', '合计（元/人天）'],
      ['一类会议', '380', '640'],
      ['二类会议', '280', '500'],
      ['三类会议', '240', '440'],
    ]);
    expect(within(table).getAllByRole('columnheader')).toHaveLength(3);
    // No pipes or delimiter row left as text; the prose around the table still shown.
    expect(screen.getByText(/第五条/).closest('.text-page')!.textContent).not.toContain('|');
    expect(screen.getByText(/第六条/)).toBeTruthy();
  });

  it('marks the cited rows in the table by the passage’s offsets into the text', () => {
    const row = '| 二类会议 | 280 | 500 |';
    const start = TEXT.indexOf(row);
    const onShown = vi.fn();
    const { container } = render(
      <TextPage
        text={TEXT}
        passage={{ start, end: start + row.length + '\n| 三类'.length }}
        onShown={onShown}
      />,
    );
    const marks = [...container.querySelectorAll('mark.passage')];
    expect(marks.map((mark) => mark.textContent)).toEqual(['二类会议', '280', '500', '三类']);
    expect(onShown).toHaveBeenCalledWith(marks);
    const rows = [...container.querySelectorAll('tbody tr')];
    expect(rows.map((tr) => tr.querySelectorAll('.in-passage').length)).toEqual([0, 3, 0]);
  });

  it('marks a passage that runs from the prose into the table, and on past it', () => {
    const start = TEXT.indexOf('会议费综合定额标准');
    const end = TEXT.indexOf('会议召开单位');
    const { container } = render(
      <TextPage text={TEXT} passage={{ start, end }} onShown={() => undefined} />,
    );
    const marks = [...container.querySelectorAll('mark.passage')].map((mark) => mark.textContent);
    expect(marks[0]).toBe('会议费综合定额标准如下表：');
    expect(marks).toContain('住宿费（元/人天）');
    expect(marks).toContain('440');
    expect(marks.at(-1)).toBe('第六条 ');
    expect(container.querySelectorAll('td.in-passage, th.in-passage')).toHaveLength(12);
  });

  it('leaves a pipe in ordinary prose as text', () => {
    const text = '报销方式：现金 | 转账 任选其一。\n审批人 | 经办人 均须签字。';
    const { container } = render(<TextPage text={text} onShown={() => undefined} />);
    expect(container.querySelector('table')).toBeNull();
    expect(container.querySelector('.text-page')!.textContent).toBe(text);
  });
});
