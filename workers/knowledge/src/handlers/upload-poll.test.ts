import { describe, expect, it } from 'vitest';
import { FIRST_POLL_MS, POLL_MS, pollDelay } from './upload-poll';

describe('pollDelay', () => {
  it('looks soon at first, then backs off to the steady interval', () => {
    const delays = Array.from({ length: 12 }, (_, attempt) => pollDelay(attempt));
    expect(delays[0]).toBe(FIRST_POLL_MS);
    // Where one fixed interval looked once, the first POLL_MS now holds three more looks.
    expect(delays.slice(0, 3).reduce((a, b) => a + b, 0)).toBeLessThan(POLL_MS);
    for (let i = 1; i < delays.length; i++)
      expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(delays.slice(-4)).toEqual([POLL_MS, POLL_MS, POLL_MS, POLL_MS]);
  });

  it('never waits longer than the steady interval, however long the ingest', () => {
    expect(pollDelay(1000)).toBe(POLL_MS);
  });
});
