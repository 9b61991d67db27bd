import { describe, expect, it } from 'vitest';
import { normaliseForIndex } from './normalise-for-index';

describe('normaliseForIndex', () => {
  it.each([
    ['累计贴息金额不超过５０００元', '累计贴息金额不超过5000元'],
    ['ＬＰＲ加１５０个基点', 'LPR加150个基点'],
    ['创 业 担 保 贷 款', '创业担保贷款'],
    ['第一条\u3000为深入实施', '第一条为深入实施'],
    ['the ﬁnal   report\n\nof the council', 'the final report of the council'],
    ['Kestrel Ward  and  Tessaly Road', 'Kestrel Ward and Tessaly Road'],
  ])('%j → %j', (text, expected) => {
    expect(normaliseForIndex(text)).toBe(expected);
  });
});
