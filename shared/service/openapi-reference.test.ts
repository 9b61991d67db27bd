// What the API reference shows of each route: grouped by module (one tag), a summary (the doc's
// first sentence, or the module's Chinese one) with the route's roles, and the role and
// credential sentences in the document's language.
import { describe, expect, it } from 'vitest';
import { exampleService } from './fixtures/example-service';
import { firstSentence, mergeOpenApi, openApiDocument } from './openapi';
import type { JsonObject } from './openapi-schema';

const operations = (document: ReturnType<typeof openApiDocument>) =>
  Object.values(document.paths).flatMap((item) => Object.values(item));
const byId = (document: ReturnType<typeof openApiDocument>, id: string) =>
  operations(document).find((op) => op.operationId === id) as JsonObject;

describe('firstSentence', () => {
  it('takes the doc up to its first full stop, without annotations or the stop', () => {
    expect(firstSentence('Creates a user. @role(SUPER_ADMIN) @credential(login)')).toBe(
      'Creates a user',
    );
    expect(
      firstSentence('Logs in. Unknown user, wrong password and disabled user all answer'),
    ).toBe('Logs in');
    expect(firstSentence('The chunks that best match `text`. `mode=vector`: by embedding.')).toBe(
      'The chunks that best match `text`',
    );
  });

  it('does not stop inside a sentence: versions, addresses, lower-case words', () => {
    expect(firstSentence('Uploads Word (.docx) or PDF files.\nThen more.')).toBe(
      'Uploads Word (.docx) or PDF files',
    );
    expect(firstSentence('Mail admin@example.com. e.g. this')).toBe(
      'Mail admin@example.com. e.g. this',
    );
    expect(firstSentence('No stop at all')).toBe('No stop at all');
  });
});

describe('the reference groups routes by module and sums each up', () => {
  const english = openApiDocument(exampleService);

  it('tags every operation with its module, which the document describes', () => {
    expect(english.tags).toEqual([
      {
        name: 'knowledge',
        description: 'Knowledge base of uploaded documents. Questions to admin@example.com.',
      },
    ]);
    for (const op of operations(english)) expect(op.tags).toEqual(['knowledge']);
  });

  it('sums up each route by its first sentence, with its roles', () => {
    expect(byId(english, 'PostLogin').summary).toBe('Log in with a user name and password [guest]');
    expect(byId(english, 'DeleteFile').summary).toBe('Delete a stored file [SUPER_ADMIN]');
    expect(byId(english, 'GetQuery').summary).toBe(
      'Similarity query over the knowledge base [USER, SUPER_ADMIN]',
    );
    expect(byId(english, 'Explode').summary).toBe('Always fails');
    for (const op of operations(english)) expect(String(op.summary)).not.toMatch(/@|\n/);
  });

  it('in Chinese: the given summaries, the module’s description, roles and credentials in Chinese', () => {
    const chinese = openApiDocument(exampleService, {
      language: 'zh',
      summaries: { PostLogin: '用用户名和密码登录', DeleteFile: '删除存储的文件' },
      moduleDoc: '上传文档的知识库。',
    });
    expect(byId(chinese, 'PostLogin').summary).toBe('用用户名和密码登录 [guest]');
    expect(byId(chinese, 'DeleteFile').summary).toBe('删除存储的文件 [SUPER_ADMIN]');
    expect(byId(chinese, 'DeleteFile').description).toContain('角色：SUPER_ADMIN。');
    expect(byId(chinese, 'DeleteFile').description).not.toContain('Roles:');
    // A route without a Chinese summary keeps the English one rather than none.
    expect(byId(chinese, 'Explode').summary).toBe('Always fails');
    expect(chinese.tags).toEqual([{ name: 'knowledge', description: '上传文档的知识库。' }]);
    expect(chinese.info.description).toBe('上传文档的知识库。');
  });

  it('keeps every module’s tag, in order, when documents are merged', () => {
    const other = { ...openApiDocument(exampleService), paths: {}, tags: [{ name: 'chat' }] };
    const merged = mergeOpenApi([openApiDocument(exampleService), other]);
    expect(merged.tags?.map((tag) => tag.name)).toEqual(['knowledge', 'chat']);
    expect(byId(merged, 'knowledge.PostLogin').tags).toEqual(['knowledge']);
  });
});
