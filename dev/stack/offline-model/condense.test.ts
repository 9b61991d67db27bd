import { describe, expect, it } from 'vitest';
import { condensedQuestion, withKeyTerms } from './condense.ts';

describe('offline follow-up rewriting', () => {
  it('adds the previous question’s key terms the follow-up lacks (English)', () => {
    expect(withKeyTerms('And what about freight?', 'What is the Marrowbank refund rule?')).toBe(
      'And what about freight? Marrowbank refund rule',
    );
  });

  it('adds the key terms of a Chinese question, cut at function characters', () => {
    expect(withKeyTerms('那夜间呢？', '出租车的起步价是多少？')).toBe('那夜间呢？ 出租车 起步价');
  });

  it('lets an ordinal of the follow-up replace the one asked before', () => {
    expect(withKeyTerms('那第二条呢？', '《住房公积金管理办法》第一条规定了什么？')).toBe(
      '那第二条呢？ 住房公积金管理办法 规定',
    );
  });

  it('leaves a question that stands alone as it is', () => {
    expect(
      withKeyTerms('zebra quantum volcano eruption', 'What is the Marrowbank refund rule?'),
    ).toBe('zebra quantum volcano eruption');
    expect(withKeyTerms('斑马量子火山在哪里喷发？', '出租车的起步价是多少？')).toBe(
      '斑马量子火山在哪里喷发？',
    );
    // Too few words to search on: leans on the conversation even without a cue.
    expect(withKeyTerms('Freight?', 'What is the Marrowbank refund rule?')).toBe(
      'Freight? Marrowbank refund rule',
    );
  });

  it('leaves a question that already has the terms as it is', () => {
    expect(
      withKeyTerms(
        'What is the Marrowbank refund rule for freight?',
        'What is the Marrowbank refund rule?',
      ),
    ).toBe('What is the Marrowbank refund rule for freight?');
  });

  it('recognises a rewriting request by its conversation block and follow-up line only', () => {
    const request = [
      'Rewrite the follow-up question …',
      '<conversation>',
      'User: What is the Marrowbank refund rule?',
      'Assistant: 1. Tickets are refunded within 14 days.',
      '</conversation>',
      '',
      'Follow-up question: And what about freight?',
    ].join('\n');
    expect(condensedQuestion([{ role: 'user', content: request }])).toBe(
      'And what about freight? Marrowbank refund rule',
    );
    expect(
      condensedQuestion([{ role: 'user', content: 'Question: What about freight?' }]),
    ).toBeUndefined();
  });
});
