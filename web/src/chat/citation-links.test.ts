import { describe, expect, it } from 'vitest';
import { withoutCitations } from './citation-links';

describe('an answer without its citations', () => {
  it('drops numbered citations in every form the service counts, and the space before them', () => {
    expect(withoutCitations('25 个工作日 [1]。')).toBe('25 个工作日。');
    expect(withoutCitations('限额为 500 元【2】【3】，见第三条[1, 3]。')).toBe(
      '限额为 500 元，见第三条。',
    );
    expect(withoutCitations('Up to 25 days [1-3].\n- Ten years [2]\n- Apply early')).toBe(
      'Up to 25 days.\n- Ten years\n- Apply early',
    );
  });

  it('drops page markers', () => {
    expect(withoutCitations('25 days [leave.pdf p. 3] or so [notes.md § Leave (excerpts)].')).toBe(
      '25 days or so.',
    );
  });

  it('keeps everything else: a 文号 in square brackets, other brackets, numbers', () => {
    expect(withoutCitations('依据川办规[2025]6号 [1]。')).toBe('依据川办规[2025]6号。');
    expect(withoutCitations('[a] (1) [1000] 〔2023〕')).toBe('[a] (1) [1000] 〔2023〕');
  });
});
