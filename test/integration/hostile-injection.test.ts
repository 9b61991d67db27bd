// Injection: SQL and pgvector metacharacters in everything a client can type (query text,
// file ids, usernames, upload file names), path traversal and control characters in file names
// and download ids. All of it is data: no 5xx, names stored sanitised, Content-Disposition that
// cannot be broken out of, and every table intact afterwards.
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { textPdf, toUnicodePdf } from '../../dev/fixtures/hostile-pdfs';
import {
  call,
  createUser,
  deleteUser,
  login,
  seededAdminToken,
  tokenFor,
  uniqueIp,
  type TestUser,
} from '../helpers/auth';
import { queryRows } from '../helpers/database';
import {
  deleteFile,
  expectProblem,
  rawMultipart,
  refusalMismatch,
  storeCounts,
  tablesIntact,
  upload,
  uploadOk,
  type StoreCounts,
  type Uploaded,
} from '../helpers/hostile';

const PAYLOADS = [
  "'; drop table chunks; --",
  "' or '1'='1",
  '"; drop table files; --',
  '1; select pg_sleep(10); --',
  "') union select id, sha256, name, 1, 1 from files --",
  '<=> <-> <#> <+> <~> <%>',
  "'[1,2,3]'::vector <=> embedding",
  '$1 $2 $$ $tag$ drop table users $tag$',
  '::vector(3)',
  '\\x00\\\\\' \\"',
  '%_%',
  "E'\\x27'",
  '/* */ -- #',
];

let admin = '';
let user: TestUser;
let token = '';
let known: Uploaded;
let before: StoreCounts;
const cleanup: string[] = [];
const usersToDelete: string[] = [];

beforeAll(async () => {
  admin = await seededAdminToken();
  user = await createUser();
  token = await tokenFor(user.username, user.password);
  known = await uploadOk(
    token,
    textPdf(`Injection control document about Brindlecombe tram fares ${crypto.randomUUID()}.`),
    'injection-control.pdf',
  );
  cleanup.push(known.id);
  before = await storeCounts();
});

afterAll(async () => {
  for (const id of cleanup) await deleteFile(admin, id);
  for (const id of usersToDelete) await deleteUser(id);
});

describe('SQL and pgvector operators in query text', () => {
  it.each(PAYLOADS)('text %j is just text (HTTP and RPC)', async (payload) => {
    const res = await call(
      `/moduleknowledge/query?${new URLSearchParams({ text: payload, top: '5' })}`,
      {
        token,
      },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { data } = await res.json<{ data: { file_id: string; similarity: number }[] }>();
    expect(Array.isArray(data)).toBe(true);
    expect(data.length).toBeLessThanOrEqual(5);
    for (const row of data) expect(Number.isFinite(row.similarity)).toBe(true);
    const rpc = await env.KNOWLEDGE_RPC.GetQuery(
      { text: payload, top: 5 },
      { identity: { token } },
    );
    expect(rpc.ok).toBe(true);
  });

  it('the tables, rows and the index are intact afterwards', async () => {
    await tablesIntact();
    const now = await storeCounts();
    expect({ files: now.files, chunks: now.chunks, pages: now.pages }).toEqual({
      files: before.files,
      chunks: before.chunks,
      pages: before.pages,
    });
    const [index] = await queryRows<{ indexname: string }>(
      sql`select indexname from pg_indexes where indexname = 'chunks_embedding_hnsw_idx'`,
    );
    expect(index?.indexname).toBe('chunks_embedding_hnsw_idx');
  });
});

describe('injection in file_id', () => {
  const bad = [
    ...PAYLOADS,
    `${crypto.randomUUID()}' or '1'='1`,
    `${crypto.randomUUID()},'; drop table files; --`,
    `${crypto.randomUUID()}::uuid`,
    '00000000-0000-0000-0000-000000000000) or (1=1',
  ];

  it('list and query refuse every one with 400 naming file_id', async () => {
    const mismatches: string[] = [];
    for (const fileId of bad) {
      for (const path of [
        `/moduleknowledge/list?${new URLSearchParams({ file_id: fileId })}`,
        `/moduleknowledge/query?${new URLSearchParams({ text: 'tram fares', file_id: fileId })}`,
      ]) {
        const res = await call(path, { token });
        const text = await res.text();
        const mismatch = refusalMismatch(res, text, [400]);
        if (mismatch) mismatches.push(`${path}: ${mismatch}`);
        else if (!text.includes('"field":"file_id"')) mismatches.push(`${path}: no file_id issue`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('RPC GetQuery refuses them with a 400 result', async () => {
    for (const fileId of bad) {
      const result = await env.KNOWLEDGE_RPC.GetQuery(
        { text: 'tram fares', top: 3, file_id: fileId },
        { identity: { token } },
      );
      expect(result, fileId).toMatchObject({ ok: false, error: { status: 400 } });
    }
  });

  it('chat refuses a malformed file_id with 400, as knowledge does (not a 200 "unavailable" stream)', async () => {
    const mismatches: string[] = [];
    for (const fileId of bad) {
      const res = await call('/modulechat/chat', {
        token,
        json: { prompt: 'What do trams cost?', file_id: fileId },
      });
      const mismatch = refusalMismatch(res, await res.text(), [400]);
      if (mismatch) mismatches.push(`${JSON.stringify(fileId)}: ${mismatch}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('a well-formed id list with the known file still filters to it', async () => {
    const res = await call(
      `/moduleknowledge/list?file_id=${encodeURIComponent(` ${known.id.toUpperCase()} ,,${crypto.randomUUID()}`)}`,
      { token },
    );
    expect(res.status).toBe(200);
    const { data } = await res.json<{ data: { id: string }[] }>();
    expect(data.map((f) => f.id)).toEqual([known.id]);
  });
});

describe('SQL metacharacters in usernames', () => {
  const names = [
    "admin' --",
    "admin'/*",
    "' or '1'='1",
    "x'); drop table users; --",
    '$1::text',
    'a<=>b <-> c',
    '%admin%',
    '_dmin',
  ];

  it('login with each is an ordinary 401 (or 400), never a 5xx and never a token', async () => {
    const { admin: seeded } = inject('stack');
    for (const username of [...names, `${seeded.username}' --`, `${seeded.username}'/*`]) {
      const res = await login(username, seeded.password, uniqueIp());
      expect([400, 401], `${username} → ${res.status}`).toContain(res.status);
      expect(await res.text()).not.toContain('token');
    }
  });

  it('each can be created, is stored verbatim, and can log in; users is intact', async () => {
    const countBefore = (await storeCounts()).users;
    for (const base of names) {
      const username = `${base}${crypto.randomUUID().slice(0, 6)}`.slice(0, 50);
      const created = await createUser({ username });
      usersToDelete.push(created.id);
      expect(created.username).toBe(username);
      const [row] = await queryRows<{ username: string }>(
        sql`select username from users where id = ${created.id}`,
      );
      expect(row?.username).toBe(username);
      expect(await tokenFor(username, created.password)).toEqual(expect.any(String));
    }
    expect((await storeCounts()).users).toBe(countBefore + names.length);
    await tablesIntact();
  });
});

describe('hostile upload file names', () => {
  // Each upload needs its own bytes, or it is answered as a duplicate with the first name.
  const pdf = (label: string) => textPdf(`File name test ${label} ${crypto.randomUUID()}`);

  const cases: [string, string][] = [
    ['traversal', '../../etc/passwd'],
    ['windows traversal', '..\\..\\windows\\system32\\drivers\\etc\\hosts.pdf'],
    ['absolute', '/etc/shadow.pdf'],
    ['url-encoded traversal', '%2e%2e%2f%2e%2e%2fetc%2fpasswd.pdf'],
    ['file url', 'file:///etc/passwd.pdf'],
    ['CRLF header injection', 'report.pdf\r\nSet-Cookie: session=stolen\r\n\r\n<html>'],
    ['quotes', 'a"; filename="evil.exe'],
    ['NUL', 'invoice.pdf\u0000.exe'],
    ['bidi override', 'invoice\u202Efdp.exe'],
    ['control characters', 'a\u0001b\u0007c\u001bd\u007fe\u0085f.pdf'],
    ['SQL', "x'); drop table files; --.pdf"],
    ['pgvector', '<=> <-> <#> ::vector.pdf'],
    ['HTML', '<img src=x onerror=alert(1)>.pdf'],
    ['only dots', '....'],
    ['very long', `${'long-name-'.repeat(200)}.pdf`],
    ['emoji and CJK', '报告 📄 résumé.pdf'],
  ];

  // workerd's FormData writes CR, LF and NUL into the part header as they are (a browser would
  // percent-encode them), so the body itself is malformed: a 400 is right for those two.
  const malformedOnTheWire = new Set(['CRLF header injection', 'NUL']);

  it.each(cases)(
    '%s: stored sanitised, listed and downloaded with a safe Content-Disposition',
    async (label, name) => {
      const res = await upload(token, pdf(label), name);
      if (malformedOnTheWire.has(label) && res.status !== 200) {
        await expectProblem(res, [400], undefined, label);
        return;
      }
      expect(res.status, `${label}: ${await res.clone().text()}`).toBe(200);
      const { data: file } = await res.json<{ data: Uploaded }>();
      cleanup.push(file.id);

      expect(file.name).not.toMatch(/[/\\]/);
      expect(file.name).not.toMatch(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
      expect(file.name).toMatch(/\.pdf$/i);
      expect(file.name).not.toMatch(/^\./);
      expect([...file.name].length).toBeLessThanOrEqual(200);
      const expected: Record<string, string> = {
        traversal: 'passwd.pdf',
        'emoji and CJK': '报告 📄 résumé.pdf',
        'only dots': 'document.pdf',
      };
      if (expected[label]) expect(file.name).toBe(expected[label]);

      const listed = await call(`/moduleknowledge/list?file_id=${file.id}`, { token });
      const { data: files } = await listed.json<{ data: { id: string; name: string }[] }>();
      expect(files.map((f) => f.name)).toEqual([file.name]);

      const download = await call(`/moduleknowledge/download?id=${file.id}`, { token });
      expect(download.status).toBe(200);
      const disposition = download.headers.get('content-disposition') ?? '';
      expect(disposition).not.toMatch(/[\r\n\0]/);
      expect(disposition).toMatch(
        /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!#$&+.^_`|~-]+$/,
      );
      const quoted = /filename="([^"]*)"/.exec(disposition)?.[1] ?? '';
      expect(quoted).not.toMatch(/["\\/]/);
      const extended = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '';
      expect(decodeURIComponent(extended)).toBe(file.name);
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      expect(download.headers.get('set-cookie')).toBeNull();
      expect(download.headers.get('content-type')).toBe('application/pdf');
      await download.arrayBuffer();
    },
  );
});

describe('an empty file name', () => {
  it('is what a browser sends for an empty file input: 400 "file", nothing stored', async () => {
    const before = await storeCounts();
    const res = await upload(token, textPdf(`Empty name ${crypto.randomUUID()}`), '');
    const problem = await expectProblem(res, [400], ['validation_failed']);
    expect(problem.errors?.map((e) => e.field)).toEqual(['file']);
    expect(await storeCounts()).toEqual(before);
  });
});

describe('raw multipart part headers', () => {
  // FormData escapes quotes and line breaks in a file name; these go out byte for byte.
  const cases: [string, string][] = [
    ['escaped quote', 'name="file"; filename="a\\"b.pdf"'],
    ['raw CR in the name', 'name="file"; filename="a\rb.pdf"'],
    ['raw tab and NUL', 'name="file"; filename="a\tb\u0000c.pdf"'],
    ['RFC 5987 traversal', 'name="file"; filename*=UTF-8\'\'..%2F..%2Fetc%2Fpasswd'],
    ['both forms', 'name="file"; filename="safe.pdf"; filename*=UTF-8\'\'%0d%0aevil.pdf'],
    ['unquoted name with spaces', 'name=file; filename=a b c.pdf'],
    ['no file name at all', 'name="file"'],
  ];

  it.each(cases)(
    '%s: stored with a safe name, or refused with 400 — never a 5xx',
    async (label, disposition) => {
      const { body, contentType } = rawMultipart([
        {
          disposition,
          contentType: 'application/pdf',
          data: textPdf(`Raw multipart ${label} ${crypto.randomUUID()}`),
        },
      ]);
      const res = await call('/moduleknowledge/upload', { token, body, contentType });
      const text = await res.clone().text();
      expect([200, 400, 415], `${label}: ${res.status} ${text}`).toContain(res.status);
      if (res.status !== 200) {
        await expectProblem(res, [400, 415], undefined, label);
        return;
      }
      const { data } = await res.json<{ data: Uploaded }>();
      cleanup.push(data.id);
      expect(data.name, label).not.toMatch(/[/\\\p{Cc}]/u);
      expect(data.name, label).toMatch(/\.pdf$/);
    },
  );
});

describe('text that Postgres cannot store', () => {
  it('a PDF whose text contains NUL characters is stored without them (or refused), never a 5xx', async () => {
    const countsBefore = await storeCounts();
    // "Harbour" NUL "fees": a ToUnicode CMap maps one glyph to U+0000.
    const text = [...'Harbour fees '].map((c) => c.codePointAt(0)!);
    const codePoints = [...text, 0x00, ...[...'Quillmere'].map((c) => c.codePointAt(0)!)];
    const res = await upload(
      token,
      toUnicodePdf([...codePoints, ...[...crypto.randomUUID()].map((c) => c.codePointAt(0)!)]),
      'nul-text.pdf',
    );
    const body = await res.clone().text();
    expect(res.status, body).toBeLessThan(500);
    if (res.status === 200) {
      const { data } = await res.json<{ data: Uploaded }>();
      cleanup.push(data.id);
      const [page] = await queryRows<{ text: string }>(
        sql`select text from file_pages where file_id = ${data.id}`,
      );
      expect(page?.text).toContain('Harbour fees');
      expect(page?.text).not.toContain('\u0000');
    } else {
      await expectProblem(res, [422], ['pdf_no_text', 'pdf_ocr_no_text', 'pdf_corrupt']);
      expect(await storeCounts()).toEqual(countsBefore);
    }
  });

  it('a PDF whose text holds a lone surrogate and escape sequences is stored as valid text', async () => {
    const codePoints = [
      ...[...'Lone surrogate '].map((c) => c.codePointAt(0)!),
      0xd800,
      0x20,
      0x1b,
      ...[...'[31m red '].map((c) => c.codePointAt(0)!),
      ...[...crypto.randomUUID()].map((c) => c.codePointAt(0)!),
    ];
    const res = await upload(token, toUnicodePdf(codePoints), 'surrogate.pdf');
    expect(res.status, await res.clone().text()).toBeLessThan(500);
    if (res.status === 200) {
      const { data } = await res.json<{ data: Uploaded }>();
      cleanup.push(data.id);
      const listed = await call(`/moduleknowledge/list?file_id=${data.id}&with_content=true`, {
        token,
      });
      expect(listed.status).toBe(200);
      const { data: files } = await listed.json<{ data: { content: string }[] }>();
      expect(files[0]?.content).toContain('Lone surrogate');
    }
  });
});
