import { describe, expect, it } from 'vitest';
import {
  buildCases,
  changeDate,
  changeDocument,
  changeNumber,
  falseFlags,
  score,
} from './support.ts';

describe('the support evaluation', () => {
  it('corrupts what it says it does', () => {
    expect(changeNumber('每辆补贴5000元，自2024年6月1日起')).toBe(
      '每辆补贴6000元，自2024年6月1日起',
    );
    expect(changeDate('Round 1 closes on 15 March 2024.')).toBe('Round 1 closes on 17 March 2024.');
    expect(changeDocument('依据青人社发〔2024〕12号')).toBe('依据青人社发〔2024〕13号');
    expect(changeDocument('Policy FIN-TE-07 applies')).toBe('Policy FIN-TE-08 applies');
  });

  it('keeps the measured figures: every kind mostly caught, near-verbatim sentences left alone', () => {
    const cases = buildCases();
    for (const row of score(cases)) expect(row.recall, row.kind).toBeGreaterThanOrEqual(0.9);
    const [verbatim, alone] = falseFlags(cases);
    expect(verbatim!.flagged / verbatim!.sentences).toBeLessThanOrEqual(0.02);
    expect(alone!.flagged / alone!.sentences).toBeLessThanOrEqual(0.02);
  });
});
