import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetLimits,
  KNOWN_LIMITS_MS,
  knownLimits,
  limitApplies,
  limitsGeneration,
  rememberLimits,
} from './known-limits';

const NONE = { userDailyTokens: null, userDailyQuestions: null };

describe('the daily limits an isolate remembers', () => {
  afterEach(() => forgetLimits());

  it('are known for KNOWN_LIMITS_MS after a check read them, then no longer', () => {
    rememberLimits(NONE, limitsGeneration(), 1_000);
    expect(knownLimits(1_000 + KNOWN_LIMITS_MS - 1)).toEqual(NONE);
    expect(knownLimits(1_000 + KNOWN_LIMITS_MS)).toBeUndefined();
  });

  it('are forgotten at a change, and a read that started before it does not bring them back', () => {
    const readIn = limitsGeneration();
    rememberLimits(NONE, readIn);
    forgetLimits();
    expect(knownLimits()).toBeUndefined();
    rememberLimits(NONE, readIn);
    expect(knownLimits()).toBeUndefined();
    rememberLimits({ ...NONE, userDailyTokens: 5 }, limitsGeneration());
    expect(knownLimits()).toEqual({ ...NONE, userDailyTokens: 5 });
  });

  it('tell whether a limit applies: tokens to both, questions to a question only', () => {
    expect(limitApplies(NONE, 'question')).toBe(false);
    expect(limitApplies(NONE, 'search')).toBe(false);
    expect(limitApplies({ ...NONE, userDailyQuestions: 3 }, 'question')).toBe(true);
    expect(limitApplies({ ...NONE, userDailyQuestions: 3 }, 'search')).toBe(false);
    expect(limitApplies({ ...NONE, userDailyTokens: 3 }, 'search')).toBe(true);
  });
});
