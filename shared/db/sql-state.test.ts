import { describe, expect, it } from 'vitest';
import { raisedLimit, sqlStateOf } from './sql-state';

// How drizzle hands back a database function's RAISE: its own error, with the driver's (code,
// MESSAGE, DETAIL) as its cause.
const wrapped = (message: string, detail?: string, code = 'KBQ01') =>
  Object.assign(new Error('Failed query: select kbchat_quota()'), {
    cause: Object.assign(new Error(message), { code, ...(detail !== undefined ? { detail } : {}) }),
  });

describe('sqlStateOf', () => {
  it('finds the SQLSTATE however deep it was wrapped, and nothing that is not one', () => {
    expect(sqlStateOf(wrapped('user_daily_questions', '3 3'))).toBe('KBQ01');
    expect(sqlStateOf(new Error('plain'))).toBeUndefined();
    expect(sqlStateOf(Object.assign(new Error('node'), { code: 'ECONNRESET' }))).toBeUndefined();
  });
});

describe('raisedLimit', () => {
  const QUOTAS = ['user_daily_questions', 'user_daily_tokens'];

  it('names the limit of the chain and reads DETAIL as used and allowed', () => {
    expect(raisedLimit(wrapped('user_daily_tokens', '1200 1000'), QUOTAS)).toEqual({
      limit: 'user_daily_tokens',
      used: 1200,
      allowed: 1000,
    });
    expect(
      raisedLimit(wrapped('collection_max_files', '1 1', 'KBQ02'), ['collection_max_files']),
    ).toEqual({ limit: 'collection_max_files', used: 1, allowed: 1 });
  });

  it('takes the name as the driver may pad it, and only the names asked for', () => {
    expect(raisedLimit(wrapped(' user_daily_questions\n', '20 20'), QUOTAS)?.limit).toBe(
      'user_daily_questions',
    );
    expect(raisedLimit(wrapped('collection_max_bytes', '1 1'), QUOTAS)).toBeUndefined();
    expect(raisedLimit(new Error('boom'), QUOTAS)).toBeUndefined();
    expect(raisedLimit(undefined, QUOTAS)).toBeUndefined();
  });

  it('leaves out a count DETAIL does not give, and never guesses one', () => {
    expect(raisedLimit(wrapped('user_daily_questions'), QUOTAS)).toEqual({
      limit: 'user_daily_questions',
    });
    expect(raisedLimit(wrapped('user_daily_questions', 'many 20'), QUOTAS)).toEqual({
      limit: 'user_daily_questions',
      allowed: 20,
    });
    expect(raisedLimit(wrapped('user_daily_questions', '-1 2.5'), QUOTAS)).toEqual({
      limit: 'user_daily_questions',
    });
  });

  it('stops at a cause chain that loops', () => {
    const loop: { message: string; cause?: unknown } = { message: 'x' };
    loop.cause = loop;
    expect(raisedLimit(loop, QUOTAS)).toBeUndefined();
  });
});
