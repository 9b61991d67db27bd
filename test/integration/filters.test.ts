import { exports } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '#shared/service';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { call, createUser, tokenFor } from '../helpers/auth';
import { withDb } from '../helpers/database';

// Three documents with the same rule in their own collection: an in-force 办法 of 西湖区
// (A), a 四川 通知 (B) that A repeals, and an expired 杭州 通知 (C). Their metadata is set with
// SQL, as ingest or a person would set it. B's page is the question word for word and A's
// names another amount, so B ranks first until A repeals it.

type Result = {
  file_id: string;
  content: string;
  validity?: {
    status: string;
    relations: { relation: string; file_id: string | null; doc_number: string | null }[];
  };
};
type Event = { event: string; data: unknown };

const RULE = '就业补贴标准：符合条件的高校毕业生每人每月发放就业补贴800元，期限12个月。';
const tag = `T${crypto.randomUUID().slice(0, 8)}`;
const serial = Math.floor(Math.random() * 900) + 100;
const docNumber = { a: `西政办〔2024〕${serial}号`, b: `川办规〔2021〕${serial}号` };

let token = '';
let apiKey = '';
let collection = '';
const ids = { a: '', b: '', c: '' };

async function upload(text: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new File([makeTextPdf([text])], name));
  form.append('collection_id', collection);
  const res = await call('/moduleknowledge/upload', { token, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: { id: string } }>()).data.id;
}

async function query(params: Record<string, string>): Promise<Result[]> {
  const search = new URLSearchParams({ text: RULE, collection_id: collection, ...params });
  const res = await call(`/moduleknowledge/query?${search}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: Result[] }>()).data;
}

const filesOf = (results: Result[]) => [...new Set(results.map((r) => r.file_id))].sort();
const sorted = (...files: string[]) => [...files].sort();

beforeAll(async () => {
  const user = await createUser();
  token = await tokenFor(user.username, user.password);
  const key = await call('/moduleauth/api_key', { token, json: { name: 'filters' } });
  apiKey = (await key.json<{ data: { key: string } }>()).data.key;
  const res = await call('/moduleknowledge/collection', {
    token,
    json: { name: `Filters ${tag}` },
  });
  collection = (await res.json<{ data: { id: string } }>()).data.id;
  // The newer rule raises the amount: the old one matches the question better.
  ids.a = await upload(
    `${RULE.replace('800元', '1000元')}本办法自2024年4月1日起施行。编号${tag}A`,
    `西湖区办法-${tag}.pdf`,
  );
  ids.b = await upload(RULE, `四川通知-${tag}.pdf`);
  ids.c = await upload(`${RULE}本通知有效期至2020年12月31日。编号${tag}C`, `杭州通知-${tag}.pdf`);
  await withDb((db) =>
    db.execute(sql`
      update files f set issuers = m.issuers, doc_type = m.doc_type, doc_number = m.doc_number,
        issued_on = m.issued_on::date, effective_on = m.effective_on::date,
        expires_on = m.expires_on::date
      from (values
        (${ids.a}::uuid, array['杭州市西湖区人民政府', ${tag}], '办法', ${docNumber.a}, '2024-03-01', '2024-04-01', null),
        (${ids.b}::uuid, array['四川省人民政府办公厅', ${tag}], '通知', ${docNumber.b}, '2021-05-01', '2021-06-01', null),
        (${ids.c}::uuid, array['杭州市人民政府', ${tag}], '通知', null, '2019-01-01', '2019-01-01', '2020-12-31')
      ) as m(id, issuers, doc_type, doc_number, issued_on, effective_on, expires_on)
      where f.id = m.id`),
  );
});

describe('GET /moduleknowledge/query with document filters', () => {
  it.each([
    ['issuer, by containment', { issuer: '西湖' }, () => [ids.a]],
    ['issuer shared by all', { issuer: tag }, () => [ids.a, ids.b, ids.c]],
    [
      '文号 typed with square brackets',
      { doc_number: docNumber.b.replace('〔', '[').replace('〕', ']') },
      () => [ids.b],
    ],
    ['document type', { doc_type: '通知' }, () => [ids.b, ids.c]],
    [
      'issue dates, inclusive',
      { issued_from: '2021-05-01', issued_to: '2021-05-01' },
      () => [ids.b],
    ],
    ['effective from', { effective_from: '2021-06-01' }, () => [ids.a, ids.b]],
    ['effective to', { effective_to: '2019-01-01' }, () => [ids.c]],
    ['type and issuer together', { doc_type: '通知', issuer: '杭州' }, () => [ids.c]],
    ['an issuer no file has', { issuer: '黑龙江' }, () => []],
  ])('%s', async (_, filters, expected) => {
    expect(filesOf(await query(filters))).toEqual(sorted(...expected()));
  });

  it('in force, and not in force, by the validity rule', async () => {
    // Before any relation: A and B hold, C has expired.
    expect(filesOf(await query({ in_force: 'true' }))).toEqual(sorted(ids.a, ids.b));
    expect(filesOf(await query({ in_force: 'false' }))).toEqual([ids.c]);
  });

  it('also within files named by file_id', async () => {
    expect(filesOf(await query({ file_id: `${ids.a},${ids.b}`, doc_type: '通知' }))).toEqual([
      ids.b,
    ]);
  });
});

describe('documents no longer in force rank below', () => {
  it('a repealed document gives way to the one repealing it, and says so', async () => {
    const before = await query({ top: '3' });
    expect(before[0]).toMatchObject({
      file_id: ids.b,
      validity: { status: 'in_force', relations: [] },
    });

    await withDb((db) =>
      db.execute(sql`
        insert into file_relations (file_id, relation, target_file_id, origin)
        values (${ids.a}, 'repeals', ${ids.b}, 'person')`),
    );
    const after = await query({ top: '3' });
    expect(after[0]!.file_id).toBe(ids.a);
    const b = after.find((r) => r.file_id === ids.b)!;
    expect(b.validity).toEqual({
      status: 'repealed',
      relations: [
        expect.objectContaining({
          relation: 'repealed_by',
          file_id: ids.a,
          doc_number: docNumber.a,
        }),
      ],
    });
    expect(after.find((r) => r.file_id === ids.c)!.validity).toEqual({
      status: 'expired',
      relations: [],
    });
    // The in_force filter follows the relation.
    expect(filesOf(await query({ in_force: 'true' }))).toEqual([ids.a]);
  });
});

describe('a document no longer in force that alone answers', () => {
  it('keeps its place above documents in force that only share its words', async () => {
    // The old notice alone gives the limit for small businesses; the notice that repealed it
    // speaks of individuals only, and two others in force share the question's words.
    const FACT = `小微企业创业担保贷款最高不超过400万元，贷款期限不超过3年。编号${tag}R`;
    const old = await upload(`第五条 ${FACT}`, `旧办法-${tag}.pdf`);
    const successor = await upload(
      `第三条 个人创业担保贷款最高不超过50万元，贷款期限不超过3年。编号${tag}S`,
      `新办法-${tag}.pdf`,
    );
    const others = [
      await upload(
        `创业担保贷款由经办银行受理，贷款期限按合同约定。编号${tag}D`,
        `经办-${tag}.pdf`,
      ),
      await upload(`小微企业申请创业担保贷款须提交营业执照。编号${tag}E`, `材料-${tag}.pdf`),
    ];
    await withDb((db) =>
      db.execute(sql`
        insert into file_relations (file_id, relation, target_file_id, origin)
        values (${successor}, 'repeals', ${old}, 'person')`),
    );
    const results = await query({ text: '小微企业创业担保贷款最高不超过多少？', top: '5' });
    const at = (file: string) => results.findIndex((r) => r.file_id === file);
    expect(results[at(old)]).toMatchObject({ validity: { status: 'repealed' } });
    // At most the successor's nearly identical article (a new amount) comes first.
    expect(at(old)).toBeLessThanOrEqual(1);
    for (const other of others) {
      expect(at(other) === -1 || at(other) > at(old), JSON.stringify(results)).toBe(true);
    }
  });
});

async function chat(body: Record<string, unknown>): Promise<Event[]> {
  const res = await exports.default.fetch(
    new Request('http://kb.test/modulechat/chat', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ collection_id: collection, ...body }),
    }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  const out: Event[] = [];
  for await (const { event, data } of readSse(res.body!))
    out.push({ event, data: JSON.parse(data) });
  return out;
}

const contentOf = (events: Event[]) =>
  events
    .filter((e) => e.event === 'message' && (e.data as { type: string }).type === 'content')
    .map((e) => (e.data as { content: string }).content);

// These run after the ranking test: A repeals B.
describe('chat with filters', () => {
  it('searches only what the filters keep; a repealed source carries validity and the note', async () => {
    const events = await chat({
      prompt: RULE,
      filters: { issuer: tag, doc_type: '通知', issued_from: '2021-01-01' },
    });
    expect(events.some((e) => e.event === 'filters')).toBe(false);
    const sources = events.find((e) => e.event === 'sources')!.data as Result[];
    expect(sources.map((s) => s.file_id)).toEqual([ids.b]);
    expect(sources[0]!.validity).toMatchObject({ status: 'repealed' });
    // The source and the note name the document as people know it: by its 文号.
    expect(sources[0]).toMatchObject({ doc_number: docNumber.b });
    const content = contentOf(events);
    expect(content.at(-1)).toBe(`\n\n> 注意：[1] ${docNumber.b}文件已被${docNumber.a}文件废止。`);
  });

  it('proposes filters from the question, told before the answer; explicit empty filters win', async () => {
    const prompt = `西湖区2024年以来发布的办法：${RULE}`;
    const events = await chat({ prompt });
    const told = events.findIndex((e) => e.event === 'filters');
    expect(events[told]!.data).toEqual({
      request_id: expect.any(String),
      filters: { issuer: '西湖区', doc_type: '办法', issued_from: '2024-01-01' },
      proposed: true,
    });
    const firstContent = events.findIndex((e) => e.event === 'message');
    expect(told).toBeLessThan(firstContent);
    const sources = events.find((e) => e.event === 'sources')!.data as Result[];
    expect(filesOf(sources)).toEqual([ids.a]);

    const unfiltered = await chat({ prompt, filters: {} });
    expect(unfiltered.some((e) => e.event === 'filters')).toBe(false);
    const all = unfiltered.find((e) => e.event === 'sources')!.data as Result[];
    expect(filesOf(all)).toEqual(sorted(ids.a, ids.b, ids.c));
  });
});

describe('the OpenAI-compatible door with kbchat.filters', () => {
  const openai = () =>
    new OpenAI({
      baseURL: 'http://kb.test/modulechat/v1',
      apiKey,
      maxRetries: 0,
      fetch: (url, init) => exports.default.fetch(new Request(url, init)),
    });

  it('filters the search and tells the note in the content', async () => {
    const completion = await openai().chat.completions.create({
      model: `kbchat-collections:${collection}`,
      messages: [{ role: 'user', content: RULE }],
      // @ts-expect-error the service's extension
      kbchat: { filters: { doc_number: docNumber.b } },
    });
    const sources = (completion as unknown as { sources: Result[] }).sources;
    expect(sources.map((s) => s.file_id)).toEqual([ids.b]);
    expect(sources[0]!.validity).toMatchObject({ status: 'repealed' });
    expect(completion.choices[0]!.message.content).toContain(`已被${docNumber.a}文件废止。`);
  });

  it('a filter nothing matches: refused, as with nothing similar', async () => {
    const completion = await openai().chat.completions.create({
      model: `kbchat-collections:${collection}`,
      messages: [{ role: 'user', content: RULE }],
      // @ts-expect-error the service's extension
      kbchat: { filters: { issuer: '黑龙江' } },
    });
    expect(completion).toMatchObject({ kbchat_refusal: { best_similarity: null } });
  });
});
