import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { knowledgeService } from '#shared/contracts/knowledge';
import type { AppError } from '#shared/errors/app-error';
import { problemResponse } from '#shared/errors/problem';
import { openApiDocument } from '#shared/service';
import { undescribed } from '#shared/service/fixtures/answer-matches-document';
import { fileLimitRefusal } from './file-limits';
import { tooLarge } from './upload';

// The OpenAPI document of knowledge tells the truth about its 413s: a full collection's refusal
// (fileLimitRefusal) on an upload and a move, an uploader's storage limit on an upload, and an
// upload's file over the size limit.
const document = openApiDocument(knowledgeService);
const raised = (limit: string, detail: string, code = 'KBQ02') =>
  Object.assign(new Error('Failed query'), {
    cause: Object.assign(new Error(limit), { code, detail }),
  });

function answerOf(error: AppError): Promise<Response> {
  const app = new Hono().get('/', (c) => {
    c.set('requestId', 'req-1');
    return problemResponse(c, error);
  });
  return Promise.resolve(app.request('/'));
}

describe('the 413 of a full collection, as the documents declare it', () => {
  it.each(['/moduleknowledge/upload', '/moduleknowledge/file_move'])(
    '%s declares the refusal it answers, with the limit reached',
    async (path) => {
      for (const error of [
        fileLimitRefusal(raised('collection_max_files', '1 1')),
        fileLimitRefusal(raised('collection_max_bytes', '10485760 10000000')),
        fileLimitRefusal(raised('something else', '')),
      ]) {
        const answer = await answerOf(error!);
        expect(answer.status).toBe(413);
        expect(await undescribed(document, path, 'post', answer)).toEqual([]);
      }
    },
  );

  it('an uploader past their storage limit gets the upload’s declared 413, naming it', async () => {
    const error = fileLimitRefusal(raised('user_max_bytes', '524288000 524288000', 'KBQ03'))!;
    const answer = await answerOf(error);
    expect(answer.status).toBe(413);
    expect(await answer.clone().json()).toMatchObject({
      code: 'storage_limit_reached',
      limit: 'user_max_bytes',
      used: 524288000,
      allowed: 524288000,
    });
    expect(await undescribed(document, '/moduleknowledge/upload', 'post', answer)).toEqual([]);
  });

  it('leaves other database errors alone', () => {
    expect(fileLimitRefusal(raised('user_max_bytes', '1 1', '23505'))).toBeUndefined();
  });

  it('the upload’s other 413, a file over the size limit, is declared beside it', async () => {
    const answer = await answerOf(tooLarge(1000));
    expect(await undescribed(document, '/moduleknowledge/upload', 'post', answer)).toEqual([]);
  });
});
