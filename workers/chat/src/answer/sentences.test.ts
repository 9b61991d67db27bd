import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences';

const texts = (answer: string, markers?: string[]) =>
  splitSentences(answer, markers).map((s) => [s.text, s.cited]);

describe('splitSentences', () => {
  it('splits Chinese points; a point’s closing marker covers its earlier sentences', () => {
    const answer = [
      '根据所提供的资料：',
      '1. 购买纯电动乘用车的，每辆补贴5000元。报废旧车的再增加2000元[1]。',
      '2. **补贴资金**总额为1.5亿元 [2][3]',
    ].join('\n');
    expect(texts(answer)).toEqual([
      ['购买纯电动乘用车的，每辆补贴5000元。', [1]],
      ['报废旧车的再增加2000元。', [1]],
      ['补贴资金总额为1.5亿元', [2, 3]],
    ]);
  });

  it('splits English at full stops, not inside 4.8 or after a marker; [1, 3] is two sources', () => {
    const answer = 'The rate is 4.8% [1]. Permits cost 120 euros a year [1, 3]. Apply online.';
    expect(texts(answer)).toEqual([
      ['The rate is 4.8%.', [1]],
      ['Permits cost 120 euros a year.', [1, 3]],
      ['Apply online.', [1, 3]],
    ]);
  });

  it('skips headings, bare list markers, bold headings and lead-ins ending in a colon', () => {
    const answer = '## 申请条件\n\n**适用范围**\n\n1.\n- The rules are:\n- Fees rose [2].';
    expect(texts(answer)).toEqual([['Fees rose.', [2]]]);
  });

  it('reads files-mode page markers (a full stop inside "p. 3" ends nothing)', () => {
    const markers = ['[policy.pdf p. 3]', '[policy.pdf p. 4]'];
    const answer =
      '1. The grant is 5,000 euros [policy.pdf p. 4]. It is paid once [policy.pdf p. 3 (excerpts)].';
    expect(texts(answer, markers)).toEqual([
      ['The grant is 5,000 euros.', [2]],
      ['It is paid once.', [1]],
    ]);
  });

  it('joins a point’s continuation lines; sentences without markers in a block without any cite nothing', () => {
    expect(texts('1. 本细则自2024年6月1日\n   起施行。\n\nNothing cited here.')).toEqual([
      ['本细则自2024年6月1日起施行。', []],
      ['Nothing cited here.', []],
    ]);
  });

  it('marks "I don\'t know" sentences', () => {
    expect(splitSentences('根据所提供的资料，我不知道。').map((s) => s.declines)).toEqual([true]);
    expect(splitSentences("I don't know based on the provided context.")[0]!.declines).toBe(true);
  });
});
