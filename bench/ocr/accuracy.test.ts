import { describe, expect, it } from 'vitest';
import { accuracy, charactersOf, editDistance, score, sum } from './accuracy.ts';

describe('OCR accuracy', () => {
  it('compares Han characters and digits after NFKC, without spaces or punctuation', () => {
    expect(charactersOf('青政办发〔２０２４〕１７号， LPR', 'hanDigits').join('')).toBe(
      '青政办发202417号',
    );
    expect(score('补贴标准为每月１２００元。', '补 贴标准为每月1200元,', 'hanDigits')).toEqual({
      errors: 0,
      length: 12,
    });
  });

  it('counts substitutions, insertions and deletions', () => {
    expect(editDistance([...'kitten'], [...'sitting'])).toBe(3);
    expect(editDistance([], [...'abc'])).toBe(3);
    expect(score('住房补贴', '住房补站贴', 'hanDigits')).toEqual({ errors: 1, length: 4 });
    expect(score('住房补贴', '住补贴', 'hanDigits')).toEqual({ errors: 1, length: 4 });
  });

  it('scores punctuation on its own, full-width and ASCII forms alike', () => {
    expect(
      score('申请：身份证、合同，收入证明。', '申请:身份证、合同,收入证明。', 'punctuation'),
    ).toEqual({
      errors: 0,
      length: 4,
    });
    expect(score('甲，乙。', '甲乙', 'punctuation')).toEqual({ errors: 2, length: 2 });
  });

  it('reads letters and digits for English pages', () => {
    expect(score('Page 1 of 2', 'Page l of 2', 'lettersDigits')).toEqual({ errors: 1, length: 8 });
  });

  it('adds scores up and gives a percentage, never below 0', () => {
    expect(
      accuracy(
        sum([
          { errors: 1, length: 50 },
          { errors: 1, length: 50 },
        ]),
      ),
    ).toBe(98);
    expect(accuracy({ errors: 9, length: 3 })).toBe(0);
    expect(accuracy({ errors: 0, length: 0 })).toBeNull();
  });
});
