import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { backfillSearchTerms } from '../../workers/knowledge/src/db/backfill-search-terms';
import { searchQuery } from '../../workers/knowledge/src/store/search';
import { call, seededAdminToken } from '../helpers/auth';
import { withDb } from '../helpers/database';

/** The embedding model the test stack is configured with (knowledge's wrangler.toml). */
const MODEL = 'text-embedding-3-small@1536';

type Match = {
  id: number;
  similarity: number;
  content: string;
  file_id: string;
  page: number;
  found_by: string[];
  ranks: { vector?: number; keyword?: number };
};

let token = '';

async function query(params: Record<string, string>): Promise<Match[]> {
  const res = await call(`/moduleknowledge/query?${new URLSearchParams(params)}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: Match[] }>()).data;
}

async function uploadOk(bytes: Uint8Array, name: string): Promise<{ id: string }> {
  const form = new FormData();
  form.append('file', new File([bytes], name, { type: 'application/pdf' }));
  const res = await call('/moduleknowledge/upload', { method: 'POST', body: form, token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: { id: string } }>()).data;
}

// One page, one chunk. The target pages bury an exact code or amount in a long passage on
// another topic; the distractors are short and made of the same code's and amount's pieces
// (ZJAC00, 2024, 亿元), which is what lexical embeddings see, so vector search ranks them first.
const CODE_PAGE =
  'Parking permits for residents of Kestrel Ward are issued by the borough office after the ' +
  'applicant shows proof of address and a vehicle registration document. Visitor vouchers ' +
  'are sold in books of ten and are valid on the day written on them. The register entry ' +
  'for this scheme is ZJAC00-2024-0001, which the office quotes in every letter about ' +
  'renewals, appeals against refusals and changes of vehicle made during the year.';
const CODE_DISTRACTORS = [2, 3, 4, 5, 6].map(
  (n) => `Register ZJAC00-2024-000${n}: ZJAC00 register 2024, entry ZJAC00 2024.`,
);
const AMOUNT_PAGE =
  '本年度全省就业工作总体平稳，城镇新增就业人数保持稳定，重点群体就业得到有效保障。各地落实' +
  '各项稳岗政策，开展职业技能培训，支持高校毕业生和农民工就业创业。全年共安排就业补助资金' +
  '47.9亿元，用于职业培训补贴、社会保险补贴、公益性岗位补贴和就业见习补贴等支出，资金使用' +
  '情况按季度向社会公开，接受审计监督。';
const AMOUNT_DISTRACTORS = ['47.5亿元', '47.3亿元', '49.7亿元', '17.9亿元', '47.1亿元'].map(
  (amount) => `资金${amount}。资金亿元，亿元资金。`,
);

let codeFile: { id: string };
let amountFile: { id: string };

beforeAll(async () => {
  token = await seededAdminToken();
  codeFile = await uploadOk(makeTextPdf([...CODE_DISTRACTORS, CODE_PAGE]), 'register.pdf');
  amountFile = await uploadOk(makeTextPdf([AMOUNT_PAGE, ...AMOUNT_DISTRACTORS]), '就业报告.pdf');
});

describe('keyword search finds exact terms that vector search misses', () => {
  it.each([
    ['a code', () => codeFile, 'ZJAC00-2024-0001', 'ZJAC00-2024-0001', 6],
    ['an amount', () => amountFile, '47.9亿元', '47.9亿元', 1],
  ])('%s', async (_, file, text, evidence, page) => {
    const scope = { text, file_id: file().id, top: '3' };
    const vector = await query({ ...scope, mode: 'vector' });
    expect(vector.some((r) => r.content.includes(evidence))).toBe(false);

    const [keyword] = await query({ ...scope, mode: 'keyword' });
    expect(keyword).toMatchObject({ page, found_by: ['keyword'], ranks: { keyword: 1 } });
    expect(keyword!.content).toContain(evidence);

    // Fusion weighs the keyword list double for a question with a number or a code, yet
    // against distractors built to fool vector search (ranked first by it and second by
    // keywords, the target last of six) the target lands in the top five, not always first.
    const hybrid = await query({ ...scope, top: '5', mode: 'hybrid' });
    const found = hybrid.find((r) => r.content.includes(evidence));
    expect(found).toMatchObject({ page, ranks: { keyword: 1 } });
    expect(found!.found_by).toContain('keyword');
    // The same chunk's cosine similarity, whichever list found it.
    expect(found!.similarity).toBeCloseTo(keyword!.similarity, 6);
  });

  it('is the default mode', async () => {
    const scope = { text: 'ZJAC00-2024-0001', file_id: codeFile.id };
    expect(await query(scope)).toEqual(await query({ ...scope, mode: 'hybrid' }));
  });
});

describe('modes', () => {
  const scope = () => ({ text: 'Kestrel Ward visitor vouchers', file_id: codeFile.id });

  it('vector: by similarity, highest first, labelled with its ranks', async () => {
    const results = await query({ ...scope(), mode: 'vector' });
    expect(results.length).toBe(6);
    const sims = results.map((r) => r.similarity);
    expect(sims).toEqual([...sims].sort((a, b) => b - a));
    results.forEach((r, i) => {
      expect(r.found_by).toEqual(['vector']);
      expect(r.ranks).toEqual({ vector: i + 1 });
    });
  });

  it('keyword: only chunks sharing a term, labelled with their ranks', async () => {
    const results = await query({ ...scope(), mode: 'keyword' });
    expect(results.map((r) => r.page)).toEqual([6]);
    expect(results[0]).toMatchObject({ found_by: ['keyword'], ranks: { keyword: 1 } });
    expect(await query({ text: 'Quetzalcoatlus', mode: 'keyword' })).toEqual([]);
  });

  it('hybrid: both lists fused by reciprocal rank, each result saying where it came from', async () => {
    const results = await query({ ...scope(), mode: 'hybrid' });
    expect(results[0]).toMatchObject({
      page: 6,
      found_by: ['vector', 'keyword'],
      ranks: { vector: 1, keyword: 1 },
    });
    const rrf = (r: Match) =>
      (r.ranks.vector ? 1 / (60 + r.ranks.vector) : 0) +
      (r.ranks.keyword ? 1 / (60 + r.ranks.keyword) : 0);
    const scores = results.map(rrf);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const r of results) {
      expect(r.found_by).toEqual((['vector', 'keyword'] as const).filter((l) => r.ranks[l]));
    }
  });

  it('weighs the keyword list double when the question carries a number or a code', async () => {
    // Within this file's own documents: other files of the suite, running at the same time,
    // state relations that demote repealed documents after fusion (validity ranking).
    const results = await query({
      text: 'ZJAC00-2024-0001 register',
      mode: 'hybrid',
      file_id: codeFile.id,
    });
    expect(results.length).toBeGreaterThan(2);
    const weighted = (r: Match) =>
      (r.ranks.vector ? 1 / (60 + r.ranks.vector) : 0) +
      (r.ranks.keyword ? 2 / (60 + r.ranks.keyword) : 0);
    const scores = results.map(weighted);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('refuses an unknown mode with 400', async () => {
    const res = await call('/moduleknowledge/query?text=x&mode=fuzzy', { token });
    expect(res.status).toBe(400);
  });

  it('takes the mode over RPC too', async () => {
    const params = { text: '47.9亿元', top: 3, file_id: amountFile.id, mode: 'keyword' as const };
    const viaRpc = await env.KNOWLEDGE_RPC.GetQuery(params, { identity: { token } });
    const viaHttp = await query({ ...params, top: '3' });
    // Over RPC the answer also tells the caller what its embedding cost (chat's usage).
    expect(viaRpc).toEqual({
      ok: true,
      data: viaHttp,
      usage: { embedding_tokens: expect.any(Number) },
    });
  });

  it('treats tsquery operators and quotes in the text as text', async () => {
    for (const text of ["'a' & !b | c:*", "\\'; select 1; --", '<-> (ZJAC00)']) {
      for (const mode of ['keyword', 'hybrid']) {
        const res = await call(`/moduleknowledge/query?${new URLSearchParams({ text, mode })}`, {
          token,
        });
        expect(res.status, text).toBe(200);
      }
    }
  });
});

describe('the stored terms', () => {
  it('are written at ingest, and the migration step gives old chunks the same terms', async () => {
    await withDb(async (db) => {
      const terms = () =>
        db.execute<{ id: string; terms: string | null }>(
          sql`select id, search_terms::text as terms from chunks
              where file_id = ${amountFile.id}::uuid order by id`,
        );
      const written = (await terms()).rows;
      expect(written.every((r) => r.terms !== null)).toBe(true);
      expect(written[0]!.terms).toContain("'47.9亿'");
      // As a chunk stored before the column existed: no terms, until the backfill.
      await db.execute(
        sql`update chunks set search_terms = null where file_id = ${amountFile.id}::uuid`,
      );
      expect(await backfillSearchTerms(db)).toBeGreaterThanOrEqual(written.length);
      expect((await terms()).rows).toEqual(written);
      expect(await backfillSearchTerms(db)).toBe(0);
    });
  });

  it('are searched through the HNSW index and the keyword function, in one statement', async () => {
    const plan = await withDb((db) =>
      db.transaction(async (tx) => {
        // Few rows make sequential scans cheaper; forbid them to see whether the indexes CAN serve.
        await tx.execute(sql`set local enable_seqscan = off`);
        const vector = Array.from({ length: 1536 }, (_, i) => (i === 0 ? 1 : 0));
        const statement = searchQuery({
          mode: 'hybrid',
          top: 10,
          vector,
          embeddingModel: MODEL,
          terms: ['47.9亿'],
        });
        const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(sql`explain ${statement}`);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      }),
    );
    expect(plan).toContain('chunks_embedding_hnsw_idx');
    // The keyword list's GIN index use is inside the function (collections.test.ts shows it
    // is used under row-level security).
    expect(plan).toContain('Function Scan on kbchat_keyword_candidates');
  });

  // Over 10,000 chunks one hybrid query took 89 s: the terms' document frequencies were counted
  // again for every joined row (an inlined CTE), and the per-row "file is ready" subquery made
  // the planner expect 0.5 % of rows to pass, so it sorted the whole table instead of using
  // the HNSW index. The plan must count each term once and filter readiness from one array.
  it('counts each term once and checks readiness once per statement, not per row', async () => {
    const plan = await withDb(async (db) => {
      const vector = Array.from({ length: 1536 }, (_, i) => (i === 0 ? 1 : 0));
      const statement = searchQuery({
        mode: 'hybrid',
        top: 10,
        vector,
        embeddingModel: MODEL,
        terms: ['47.9亿', '元'],
      });
      const { rows } = await db.execute<{ 'QUERY PLAN': string }>(sql`explain ${statement}`);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    // The terms are counted once, inside kbchat_keyword_candidates (a materialised CTE there).
    expect(plan).toMatch(/^\s*CTE keyword_list$/m);
    // Every filter on chunks' rows is a plain comparison: no subquery runs per row.
    const chunkFilters = plan
      .split('\n')
      .filter(
        (line) => /Filter: .*file_id/.test(line) || /Recheck Cond: \(search_terms/.test(line),
      );
    expect(chunkFilters.length).toBeGreaterThan(0);
    for (const line of chunkFilters) expect(line).not.toMatch(/SubPlan/);
    expect(plan).toMatch(/file_id <> ALL \(\(InitPlan \d+\)/);
  });
});
