import { describe, expect, it } from 'vitest';
import { estimateTokens, historyMessages, recentTurns } from './history';

const turn = (question: string, answer: string, answered = true) => ({
  question,
  answer,
  answered,
});

describe('estimateTokens', () => {
  it('counts a CJK character as a token and four other characters as one', () => {
    expect(estimateTokens('住房补贴')).toBe(4);
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('补贴 ab')).toBe(3);
    expect(estimateTokens('')).toBe(0);
  });
});

describe('recentTurns', () => {
  const turns = [
    turn('a'.repeat(40), 'b'.repeat(40)),
    turn('c'.repeat(40), 'd'.repeat(40)),
    turn('e'.repeat(40), 'f'.repeat(40)),
  ];

  it('keeps the newest turns that fit the token budget, oldest first, dropping the oldest', () => {
    expect(recentTurns(turns, { tokens: 40, turns: 10 }).map((t) => t.question[0])).toEqual([
      'c',
      'e',
    ]);
    expect(recentTurns(turns, { tokens: 1000, turns: 10 }).map((t) => t.question[0])).toEqual([
      'a',
      'c',
      'e',
    ]);
  });

  it('keeps at most the turn limit', () => {
    expect(recentTurns(turns, { tokens: 1000, turns: 1 }).map((t) => t.question[0])).toEqual(['e']);
  });

  it('never splits a turn, and keeps none when the newest alone is over budget', () => {
    expect(recentTurns(turns, { tokens: 39, turns: 10 })).toEqual([turns[2]]);
    expect(recentTurns(turns, { tokens: 19, turns: 10 })).toEqual([]);
  });
});

describe('historyMessages', () => {
  it('gives answered turns as user/assistant pairs and leaves refused ones out', () => {
    expect(
      historyMessages([turn('q1', 'a1'), turn('q2', 'refused', false), turn('q3', 'a3')]),
    ).toEqual([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q3' },
      { role: 'assistant', content: 'a3' },
    ]);
  });
});
