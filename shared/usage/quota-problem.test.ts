import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { chatService } from '../contracts/chat';
import type { AppError } from '../errors/app-error';
import { problemResponse } from '../errors/problem';
import { openApiDocument } from '../service';
import { undescribed } from '../service/fixtures/answer-matches-document';
import { quotaRefusal } from './quota';

// The OpenAPI document of chat tells the truth about its 429: the refusal quotaRefusal builds,
// answered as every route answers an AppError, is what the routes that check the limits declare.
const document = openApiDocument(chatService);
const now = new Date('2026-11-26T22:30:00.000Z');
const raised = (limit: string, detail: string) =>
  Object.assign(new Error('Failed query'), {
    cause: Object.assign(new Error(limit), { code: 'KBQ01', detail }),
  });

/** The answer a route gives for the error, in the route's error protocol. */
function answerOf(error: unknown, protocol: 'openai' | undefined): Promise<Response> {
  const app = new Hono().get('/', (c) => {
    c.set('requestId', 'req-1');
    c.set('errorProtocol', protocol);
    return problemResponse(c, error as AppError);
  });
  return Promise.resolve(app.request('/'));
}

describe('the 429 of the daily limits, as the documents declare it', () => {
  it.each([
    ['/modulechat/chat', undefined],
    ['/modulechat/v1/chat/completions', 'openai'],
  ] as const)(
    '%s declares the refusal it answers, members and Retry-After',
    async (path, protocol) => {
      for (const error of [
        quotaRefusal(raised('user_daily_questions', '20 20'), 'zh', now),
        quotaRefusal(raised('user_daily_tokens', '120045 100000'), 'en', now),
        // A limit the database did not name: resets_at alone.
        quotaRefusal(raised('something else', ''), 'en', now),
      ]) {
        const answer = await answerOf(error, protocol);
        expect(answer.status).toBe(429);
        expect(await undescribed(document, path, 'post', answer)).toEqual([]);
      }
    },
  );

  it('a member the document does not name, or a wrong one, is caught', async () => {
    const error = quotaRefusal(raised('user_daily_questions', '20 20'), 'en', now) as AppError;
    const wrong = Object.assign(Object.create(error) as AppError, {
      members: { ...error.members, resets_at: 'tomorrow' },
      headers: {},
    });
    const faults = await undescribed(
      document,
      '/modulechat/chat',
      'post',
      await answerOf(wrong, undefined),
    );
    expect(faults.some((fault) => fault.includes('/resets_at'))).toBe(true);
    expect(faults).toContain('header Retry-After is missing');
  });
});
