import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '#shared/log/logger';
import { CHINESE_POLICY_PRINTED } from '../../dev/fixtures/printed-fixtures';
import { indexChunks, planChunks } from '../../workers/knowledge/src/pipeline/steps';
import { call, createUser, tokenFor } from '../helpers/auth';
import { queryRows } from '../helpers/database';
// The README's example document, whose chunks and first source the README shows.
import TRAVEL_EXPENSES from '../../examples/travel-expenses-zh.md?raw';

// Chunks follow the document's own structure: a chunk never spans two articles, and each
// carries its heading path, which queries answer (QueryResult.heading_path).

interface Result {
  content: string;
  page: number;
  section: string | null;
  heading_path: string | null;
}
interface StoredChunk extends Record<string, unknown> {
  index: number;
  page: number;
  content: string;
  heading_path: string | null;
}

const MARKDOWN = `# 青禾市社区服务管理办法

## 第一章 总则

第一条\u3000为了规范社区服务管理，提高服务质量，制定本办法。

第二条\u3000本办法适用于本市行政区域内的社区服务活动。

## 第二章 服务内容

第三条\u3000社区服务中心应当为居民提供养老照料、托育和便民维修服务。

第四条\u3000社区服务中心每周开放不少于六天，节假日安排值班。
`;

let token = '';
let pdfId = '';
let markdownId = '';

async function data<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

async function upload(bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new File([bytes], name));
  const file = await data<{ id: string; status: string }>(
    await call('/moduleknowledge/upload', { method: 'POST', body: form, token }),
  );
  expect(file.status).toBe('ready');
  return file.id;
}

const stored = (fileId: string) =>
  queryRows<StoredChunk>(
    sql`select index, page, content, heading_path from chunks where file_id = ${fileId} order by index`,
  );

const query = (text: string, fileId: string, mode = 'keyword') =>
  call(
    `/moduleknowledge/query?text=${encodeURIComponent(text)}&file_id=${fileId}&mode=${mode}&top=3`,
    { token },
  ).then((res) => data<Result[]>(res));

/** Article headings a chunk's text starts paragraphs with. */
const articlesIn = (content: string) =>
  content.match(/(?:^|\n)第[一二三四五六七八九十百]+条/gu)?.map((found) => found.trim()) ?? [];

beforeAll(async () => {
  const user = await createUser();
  token = await tokenFor(user.username, user.password);
  pdfId = await upload(CHINESE_POLICY_PRINTED.bytes(), 'policy.pdf');
  markdownId = await upload(new TextEncoder().encode(MARKDOWN), 'community.md');
}, 180_000);

describe('a PDF with chapters and articles', () => {
  it('is chunked one article at most to a chunk, each with its heading path', async () => {
    const chunks = await stored(pdfId);
    expect(chunks.length).toBeGreaterThan(20);
    for (const chunk of chunks) {
      const articles = articlesIn(chunk.content);
      expect(articles.length, chunk.content).toBeLessThanOrEqual(1);
      if (articles.length === 1) expect(chunk.heading_path?.endsWith(articles[0]!)).toBe(true);
    }
    expect(chunks.filter((chunk) => articlesIn(chunk.content).length === 1)).toHaveLength(22);
  });

  it('answers a query with the passage’s chapter and article', async () => {
    const [best] = await query('逾期还款 贴息', pdfId);
    expect(best!.content).toMatch(/^第十二条借款人逾期还款的/u);
    expect(best!.heading_path).toBe('第四章 贴息和担保 › 第十二条');
  });

  it('opens a passage with its chapter and article (the document viewer’s read)', async () => {
    const [best] = await query('逾期还款 贴息', pdfId);
    const located = await data<{ heading_path: string | null }>(
      await call(`/moduleknowledge/chunk?id=${(best as unknown as { id: number }).id}`, { token }),
    );
    expect(located.heading_path).toBe('第四章 贴息和担保 › 第十二条');
  });

  it('chunks again in steps of a few chunks exactly as at once', async () => {
    const before = await stored(pdfId);
    const ctx = {
      env: {
        ...inject('stack').workerEnv,
        INGEST_CHUNKS_PER_STEP: '4',
        FILES: env.FILES,
        READER: env.READER,
      } as unknown as KnowledgeEnv,
      log: createLogger({ module: 'structured-chunks.test' }),
    };
    const { chunks, batches } = await planChunks(ctx, pdfId);
    expect(chunks).toBe(before.length);
    // Batches that start inside the structure carry where it stands.
    expect(batches.some((batch) => (batch.structure?.open.length ?? 0) > 0)).toBe(true);
    await queryRows(sql`delete from chunks where file_id = ${pdfId}`);
    for (const [i, batch] of batches.entries()) {
      await indexChunks(ctx, pdfId, batch, { last: i === batches.length - 1 });
    }
    expect(await stored(pdfId)).toEqual(before);
  });
});

describe('a Markdown file with articles in its sections', () => {
  it('gives each chunk its section’s label and its article', async () => {
    const chunks = await stored(markdownId);
    // The document's title is a section of its own, as it always was.
    expect(chunks.map((chunk) => chunk.heading_path)).toEqual([
      '青禾市社区服务管理办法',
      '青禾市社区服务管理办法 › 第一章 总则 › 第一条',
      '青禾市社区服务管理办法 › 第一章 总则 › 第二条',
      '青禾市社区服务管理办法 › 第二章 服务内容 › 第三条',
      '青禾市社区服务管理办法 › 第二章 服务内容 › 第四条',
    ]);
    // A section's heading line goes with its first article.
    expect(chunks[1]!.content).toMatch(/^## 第一章 总则\n\n第一条/u);
    const [best] = await query('节假日 值班', markdownId);
    expect(best).toMatchObject({
      section: '青禾市社区服务管理办法 › 第二章 服务内容',
      heading_path: '青禾市社区服务管理办法 › 第二章 服务内容 › 第四条',
    });
  });
});

describe('the README’s example document', () => {
  it('has a chunk per article, and the README question finds 第三条 first', async () => {
    const id = await upload(new TextEncoder().encode(TRAVEL_EXPENSES), 'travel-expenses-zh.md');
    expect(await stored(id)).toHaveLength(8);
    const [best] = await query('省外出差住宿费每天的限额是多少？', id, 'hybrid');
    expect(best).toMatchObject({
      page: 3,
      section: '某市市级机关差旅费管理办法 › 第二章 住宿费',
      heading_path: '某市市级机关差旅费管理办法 › 第二章 住宿费 › 第三条',
    });
  });
});
