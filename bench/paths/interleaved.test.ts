import { describe, expect, it } from 'vitest';
import { interleaved } from './interleaved.ts';
import { describeCounts, statsDifference } from './round-trips.ts';

describe('interleaved', () => {
  it('runs every step once per iteration, rotating which goes first, warm-up not kept', async () => {
    const order: string[] = [];
    const step = (name: string) => async (i: number) => void order.push(`${name}${i}`);
    const samples = await interleaved(3, 1, { a: step('a'), b: step('b'), c: step('c') });
    expect(order).toEqual([
      'c-1',
      'a-1',
      'b-1',
      'a0',
      'b0',
      'c0',
      'b1',
      'c1',
      'a1',
      'c2',
      'a2',
      'b2',
    ]);
    expect(Object.keys(samples)).toEqual(['a', 'b', 'c']);
    for (const values of Object.values(samples)) expect(values).toHaveLength(3);
  });

  it('keeps the parts a step reports, one sample per measured iteration', async () => {
    const samples = await interleaved(2, 2, {
      floor: async (i) => ({ embedding: 10 + i, statement: 20 + i }),
    });
    expect(samples['floor.embedding']).toEqual([10, 11]);
    expect(samples['floor.statement']).toEqual([20, 21]);
  });
});

describe('round-trip counts', () => {
  it('subtracts counters field by field', () => {
    const before = {
      sqlRequests: 3,
      sqlStatements: 5,
      wsConnections: 1,
      wsMessages: 9,
      wsRoundTrips: 4,
    };
    const after = {
      sqlRequests: 4,
      sqlStatements: 7,
      wsConnections: 1,
      wsMessages: 9,
      wsRoundTrips: 4,
    };
    expect(statsDifference(after, before)).toEqual({
      sqlRequests: 1,
      sqlStatements: 2,
      wsConnections: 0,
      wsMessages: 0,
      wsRoundTrips: 0,
    });
  });

  it('shows one number when every call agreed, a range when not', () => {
    expect(describeCounts([1, 1, 1])).toBe('1');
    expect(describeCounts([2, 1, 2])).toBe('1–2');
  });
});
