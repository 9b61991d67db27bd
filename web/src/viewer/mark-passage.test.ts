import { describe, expect, it } from 'vitest';
import { coveredRange, scaleBoxes } from './mark-passage';

describe('coveredRange', () => {
  // A line of 10 characters drawn from x = 0 to x = 100, between y = 10 and y = 20.
  const run = [0, 10, 100, 20] as const;

  it('takes the characters whose middles lie inside a box on the same line', () => {
    expect(coveredRange(run, 10, [[30, 8, 70, 22]])).toEqual([3, 7]);
  });

  it('takes the whole run when the box covers it', () => {
    expect(coveredRange(run, 10, [[-5, 9, 105, 21]])).toEqual([0, 10]);
  });

  it('leaves a run on another line alone, however wide the box', () => {
    expect(coveredRange(run, 10, [[0, 30, 100, 40]])).toBeUndefined();
  });

  it('joins the parts that two boxes on one line cover', () => {
    expect(
      coveredRange(run, 10, [
        [0, 10, 20, 20],
        [60, 10, 100, 20],
      ]),
    ).toEqual([0, 10]);
  });

  it('takes nothing of an empty run', () => {
    expect(coveredRange(run, 0, [[0, 0, 100, 100]])).toBeUndefined();
  });
});

describe('scaleBoxes', () => {
  it('scales PDF points to the drawn page', () => {
    expect(scaleBoxes([[10, 20, 30, 40]], 1.5)).toEqual([[15, 30, 45, 60]]);
  });
});
