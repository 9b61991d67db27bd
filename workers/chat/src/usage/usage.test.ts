import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors/app-error';
import { UsageMeter } from './meter';
import { collectionCountedUnder } from '#shared/usage/counted-under';
import { nextUtcMidnight, quotaRefusal } from '#shared/usage/quota';
import { everyDay, periodOf, totalsOf } from './report';

describe('UsageMeter', () => {
  it('adds what the models report, and nothing they do not', () => {
    const meter = new UsageMeter();
    meter.addEmbedding(12);
    meter.addEmbedding(undefined);
    meter.addGeneration({ prompt_tokens: 300, completion_tokens: 40 });
    meter.addGeneration(undefined);
    meter.addGeneration({ prompt_tokens: null, completion_tokens: 5 });
    meter.addEmbedding(-3);
    expect(meter).toMatchObject({ embeddingTokens: 12, promptTokens: 300, completionTokens: 45 });
    expect(meter.totalTokens).toBe(357);
  });
});

describe('the quota refusal', () => {
  const now = new Date('2026-11-26T22:30:00.000Z');
  const raised = Object.assign(new Error('Failed query'), {
    cause: Object.assign(new Error('user_daily_questions'), { code: 'KBQ01', detail: '20 20' }),
  });

  it('resets at the next midnight UTC', () => {
    expect(nextUtcMidnight(now).toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-12-31T00:00:00.000Z')).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it('is a 429 in the asker’s language, with resets_at, Retry-After and the limit reached', () => {
    const error = quotaRefusal(raised, 'zh', now) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(429);
    expect(error.code).toBe('quota_exceeded');
    expect(error.message).toMatch(/上限/);
    expect(error.headers).toEqual({ 'Retry-After': String(90 * 60) });
    expect(error.members).toEqual({
      resets_at: '2026-11-27T00:00:00.000Z',
      limit: 'user_daily_questions',
      used: 20,
      allowed: 20,
    });
    expect((quotaRefusal(raised, 'en', now) as AppError).message).toMatch(/daily limit/);
  });

  it('leaves any other error as it was', () => {
    const other = Object.assign(new Error('session ended'), { code: 'KBS01' });
    expect(quotaRefusal(other, 'en', now)).toBe(other);
  });
});

describe('the collection a question counts under', () => {
  const a = '11111111-1111-1111-1111-111111111111';
  const b = '22222222-2222-2222-2222-222222222222';
  it('is the one asked of, else the one all sources came from, else none', () => {
    expect(collectionCountedUnder([a], [{ collection_id: b }])).toBe(a);
    expect(collectionCountedUnder(null, [{ collection_id: b }, { collection_id: b }])).toBe(b);
    expect(collectionCountedUnder([a, b], [{ collection_id: a }, { collection_id: b }])).toBeNull();
    expect(collectionCountedUnder(null, [])).toBeNull();
  });
});

describe('the report period', () => {
  const now = new Date('2026-11-26T10:00:00.000Z');
  it('defaults to the 30 days up to today', () => {
    expect(periodOf({}, now)).toEqual({ from: '2026-10-28', to: '2026-11-26' });
  });
  it('refuses a backwards or over-long period', () => {
    expect(() => periodOf({ from: '2026-11-27', to: '2026-11-26' }, now)).toThrow(AppError);
    expect(() => periodOf({ from: '2025-01-01', to: '2026-11-26' }, now)).toThrow(/367 days/);
    // Year 0 is no date to the database: refused as the field's mistake, never a 500.
    expect(() => periodOf({ from: '0000-12-31', to: '0001-01-05' }, now)).toThrow(/from: /);
    expect(() => periodOf({ to: '0000-01-05' }, now)).toThrow(/to: /);
    // The default 30 days before a day near the first start at the first.
    expect(periodOf({ to: '0001-01-05' }, now)).toEqual({ from: '0001-01-01', to: '0001-01-05' });
  });
  it('fills every day, a day without use as zeros, and totals them', () => {
    const days = everyDay('2026-02-27', '2026-03-01', [
      {
        day: '2026-02-28',
        questions: 2,
        embedding_tokens: '5',
        prompt_tokens: 7,
        completion_tokens: '3',
      },
    ]);
    expect(days.map((d) => d.day)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(days[1]).toMatchObject({ questions: 2, total_tokens: 15 });
    expect(totalsOf(days)).toMatchObject({ questions: 2, embedding_tokens: 5, total_tokens: 15 });
  });
});
