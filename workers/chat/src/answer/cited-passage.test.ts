import { describe, expect, it } from 'vitest';
import { citedPassage } from './cited-passage';

const TEXT =
  '第一条 纯电动乘用车每辆补贴5000元。第二条 插电式混合动力乘用车每辆补贴3000元。第三条 本办法自发布之日起施行。';
const at = (part: string) => TEXT.indexOf(part);
const passages = [
  { chunk_id: 11, start: 0, end: at('第二条') },
  { chunk_id: 12, start: at('第二条'), end: at('第三条') },
  { chunk_id: 13, start: at('第三条'), end: TEXT.length },
];

describe('citedPassage', () => {
  it('opens the passage the citing sentences come from', () => {
    const page = { text: TEXT, passages };
    expect(citedPassage(page, ['插电式混合动力乘用车每辆补贴3000元'])).toBe(12);
    expect(citedPassage(page, ['该办法自发布之日起施行'])).toBe(13);
    expect(citedPassage(page, ['Battery cars get 5,000 yuan each; 纯电动'])).toBe(11);
  });

  it('a figure decides between passages that share their words', () => {
    const page = { text: TEXT, passages };
    // "乘用车每辆补贴" is in both first articles; only the amount tells them apart.
    expect(citedPassage(page, ['乘用车每辆补贴3000元'])).toBe(12);
    expect(citedPassage(page, ['乘用车每辆补贴五千元'])).toBe(11);
  });

  it('a tie or too little in common: the passage knowledge named, else the page', () => {
    const page = { text: TEXT, passages, chunk_id: 12 };
    expect(citedPassage(page, ['乘用车每辆补贴'])).toBe(12);
    expect(citedPassage({ text: TEXT, passages }, ['乘用车每辆补贴'])).toBeNull();
  });

  it('a passage that shares only a word or two is not where the sentence came from', () => {
    // 补贴 is in both first articles; the rest of the sentence in neither.
    expect(citedPassage({ text: TEXT, passages }, ['申请补贴须在本市办理登记手续'])).toBeNull();
    expect(citedPassage({ text: TEXT, passages, chunk_id: 13 }, ['申请补贴须在本市办理'])).toBe(13);
    // An article's own number is no figure: "第二条" does not point at passage 12 by its 2.
    expect(citedPassage({ text: TEXT, passages }, ['第二条规定的事项'])).toBeNull();
  });

  it('without passages or citing sentences: the passage knowledge named, or none', () => {
    expect(citedPassage({ text: TEXT, chunk_id: 7 }, ['补贴'])).toBe(7);
    expect(citedPassage({ text: TEXT, passages: [] }, ['补贴'])).toBeNull();
    expect(citedPassage({ text: TEXT, passages }, [])).toBeNull();
  });
});
