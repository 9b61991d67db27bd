import { env, exports } from 'cloudflare:workers';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../../dev/fixtures/docx-builder';
import { sql } from 'drizzle-orm';
import { seededAdminToken } from '../helpers/auth';
import { queryRows, storedCounts } from '../helpers/database';

// Documents other than PDFs, told apart by their bytes (never by their name): Word, HTML,
// Markdown and plain text (UTF-8, UTF-16 with a BOM, GB18030). Formats without pages are cut
// into sections, cited by their headings. Bad input of every kind is a 4xx and writes nothing.
const BASE = 'http://kb.test';
let token = '';

type Uploaded = { id: string; name: string; status: string; pages: number; chunks: number };
type Match = { file_id: string; page: number; section: string | null; content: string };

function call(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${token}`);
  return exports.default.fetch(new Request(`${BASE}${path}`, { ...init, headers }));
}

function upload(bytes: Uint8Array, name: string, query = '') {
  const form = new FormData();
  form.append('file', new File([bytes], name));
  return call(`/moduleknowledge/upload${query}`, { method: 'POST', body: form });
}

async function uploadOk(bytes: Uint8Array, name: string): Promise<Uploaded> {
  const res = await upload(bytes, name);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: Uploaded }>()).data;
}

async function best(text: string, fileId: string): Promise<Match> {
  const res = await call(
    `/moduleknowledge/query?text=${encodeURIComponent(text)}&file_id=${fileId}`,
  );
  const { data } = await res.json<{ data: Match[] }>();
  expect(data.length, `no match for ${text}`).toBeGreaterThan(0);
  return data[0]!;
}

async function contentOf(fileId: string): Promise<string> {
  const res = await call(`/moduleknowledge/list?file_id=${fileId}&with_content=true`);
  return (await res.json<{ data: { content: string }[] }>()).data[0]!.content;
}

const unique = () => crypto.randomUUID().slice(0, 8);
const utf8 = (text: string) => new TextEncoder().encode(text);

/** UTF-16 bytes of a text, with its byte-order mark; lone surrogates are written as they are. */
function utf16(text: string, order: 'le' | 'be'): Uint8Array {
  const bytes = new Uint8Array(2 + 2 * text.length);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, order === 'le');
  for (let i = 0; i < text.length; i++)
    view.setUint16(2 + 2 * i, text.charCodeAt(i), order === 'le');
  return bytes;
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((part) => [...part]));

/** Texts whose bad bytes come after `lead` (empty: at once), in every encoding read. */
const BAD_TEXTS: [string, (lead: string) => Uint8Array][] = [
  ['UTF-16LE with an unpaired surrogate', (lead) => utf16(`${lead}Refunds \uD83D paid`, 'le')],
  ['UTF-16BE with an unpaired surrogate', (lead) => utf16(`${lead}Refunds \uDE00 paid`, 'be')],
  ['UTF-16LE of an odd length', (lead) => concat(utf16(`${lead}Refunds paid`, 'le'), utf8('!'))],
  [
    'UTF-8 with a byte-order mark and an invalid byte',
    (lead) => concat(utf8(`\uFEFF${lead}Refunds `), new Uint8Array([0xff]), utf8(' paid')),
  ],
  [
    'GB18030 with an invalid sequence',
    (lead) => concat(gb18030(`${lead}退款`), new Uint8Array([0x81, 0x20]), gb18030('支付')),
  ],
];

beforeAll(async () => {
  token = await seededAdminToken();
});

describe('documents that are not PDFs', () => {
  it('a Word document: its headings become the sections answers cite', async () => {
    const id = unique();
    const file = await uploadOk(
      await makeDocx([
        ['Heading1', `Startup loans ${id}`],
        [null, 'A guaranteed startup loan is at most 5000 yuan for a person.'],
        ['Heading2', 'Interest'],
        [null, `The interest on the loan is paid by the fund, reference Kelvorn${id}.`],
      ]),
      'loans.docx',
    );
    expect(file).toMatchObject({ name: 'loans.docx', status: 'ready' });
    const match = await best(`Kelvorn${id} interest`, file.id);
    expect(match.section).toBe(`Startup loans ${id} › Interest`);
    expect(match.content).toContain(`Kelvorn${id}`);
  });

  it('HTML: the visible text only (never scripts or styles), headings as sections', async () => {
    const id = unique();
    const file = await uploadOk(
      utf8(
        `<!DOCTYPE html><html><head><title>t</title><style>.x{color:red}</style>
        <script>var secretToken = "script-${id}";</script></head><body>
        <h1>Transit passes</h1><p>The Silverpine card costs 20 euros a month.</p>
        <h2>Refunds &amp; returns</h2><p>Refunds take 45 days, code Truvex${id}.</p>
        <noscript>noscript-${id}</noscript></body></html>`,
      ),
      'passes.pdf', // the name does not decide the format; the bytes do
    );
    expect(file.name).toBe('passes.pdf.html');
    const content = await contentOf(file.id);
    expect(content).toContain('Refunds take 45 days');
    expect(content).not.toContain(`script-${id}`);
    expect(content).not.toContain(`noscript-${id}`);
    expect(content).not.toContain('color:red');
    const match = await best(`Truvex${id} refunds`, file.id);
    expect(match.section).toBe('Transit passes › Refunds & returns');
  });

  it('Markdown: headings as sections', async () => {
    const id = unique();
    const file = await uploadOk(
      utf8(
        `# Travel policy\n\nIntroduction text.\n\n## Meals\n\n- Lunch up to 19 euros, code Wenmar${id}\n- Dinner up to 30 euros\n`,
      ),
      'travel.md',
    );
    const match = await best(`Wenmar${id} lunch`, file.id);
    expect(match.section).toBe('Travel policy › Meals');
  });

  it('plain text in GB18030 (Chinese Windows files) and UTF-16 read as the text they are', async () => {
    const phrase = `创业担保贷款额度最高为5000元，编号${unique()}`;
    // GB18030 for the phrase: the runtime has no encoder for it, so the bytes are written out.
    const gb = gb18030(phrase);
    const gbFile = await uploadOk(gb, 'notice.txt');
    expect(await contentOf(gbFile.id)).toContain(phrase);

    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(
        new Uint16Array([...`UTF-16 text ${phrase}`].map((c) => c.charCodeAt(0))).buffer,
      ),
    ]);
    const utf16File = await uploadOk(utf16, 'notice16.txt');
    expect(await contentOf(utf16File.id)).toContain(phrase);
  });
});

describe('bad documents answer 4xx and write nothing', () => {
  it.each([
    [
      'JSON data',
      () => utf8('{"title": "not a document", "pages": [1, 2]}'),
      415,
      'unsupported_format',
    ],
    [
      'an SVG image',
      () => utf8('<svg xmlns="http://www.w3.org/2000/svg"><text>x</text></svg>'),
      415,
      'unsupported_format',
    ],
    [
      'a PNG image',
      () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
      415,
      'unsupported_format',
    ],
    // Text (no binary control bytes) that decodes in none of UTF-8, UTF-16 and GB18030: the
    // uploader is told to save it as UTF-8, not that it is no document.
    [
      'text in no encoding it could be',
      () => new Uint8Array([0x41, 0x81, 0x20, 0xff, 0x42, 0xfe, 0x30]),
      422,
      'document_bad_encoding',
    ],
    ...BAD_TEXTS.map(
      ([what, make]) => [what, () => make(''), 422, 'document_bad_encoding'] as const,
    ),
    [
      'an HTML page with nothing visible',
      () => utf8('<html><body><script>x()</script></body></html>'),
      422,
      'document_no_text',
    ],
    ['a damaged Word document', async () => corruptDocx(), 422, 'document_corrupt'],
    [
      'a Word document that inflates to 48 MiB (a ZIP bomb)',
      async () => bombDocx(),
      422,
      'document_too_complex',
    ],
  ] as const)('%s', async (_, make, status, code) => {
    const before = await storedCounts(env.FILES);
    const res = await upload(await make(), 'bad.docx');
    expect(res.status, await res.clone().text()).toBe(status);
    expect(await res.json()).toMatchObject({ code });
    expect(await storedCounts(env.FILES)).toEqual(before);
  });

  it('a text with more sections than pages are allowed: 422', async () => {
    const many = Array.from({ length: 501 }, (_, i) => `# Part ${i}\n\nText of part ${i}.`).join(
      '\n\n',
    );
    const res = await upload(utf8(many), 'many.md');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'document_too_many_pages' });
  });
});

describe('text that does not decode: 422 document_bad_encoding, waiting or not', () => {
  // Past the first 64 KiB, which are all an upload looks at: the ingest finds the bad bytes.
  const far = () => `Refund rules, clause ${unique()}.\n`.repeat(3_000);

  it.each(BAD_TEXTS)('%s, asked not to wait: refused at once, nothing written', async (_, make) => {
    const before = await storedCounts(env.FILES);
    const res = await upload(make(''), 'bad.txt', '?async=true');
    expect(res.status, await res.clone().text()).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'document_bad_encoding' });
    expect(await storedCounts(env.FILES)).toEqual(before);
  });

  it.each(BAD_TEXTS)('%s past the first 64 KiB, waited for: 422, nothing left', async (_, make) => {
    const before = await storedCounts(env.FILES);
    const bytes = make(far());
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    const res = await upload(bytes, 'bad-late.txt');
    expect(res.status, await res.clone().text()).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'document_bad_encoding' });
    expect(await storedCounts(env.FILES)).toEqual(before);
  });

  it.each(BAD_TEXTS)(
    '%s past the first 64 KiB, not waited for: the file ends failed with the reason, no text written',
    async (_, make) => {
      const res = await upload(make(far()), 'bad-late-async.txt', '?async=true');
      expect(res.status, await res.clone().text()).toBe(202);
      const { id } = (await res.json<{ data: { id: string } }>()).data;
      const failed = await statusWhenSettled(id);
      expect(failed).toMatchObject({
        status: 'failed',
        chunks: 0,
        error: { code: 'document_bad_encoding', message: expect.stringMatching(/not valid text/) },
      });
      const [written] = await queryRows<{ chunks: number; pages: number }>(sql`
        select (select count(*)::int from chunks where file_id = ${id}) as chunks,
               (select count(*)::int from file_pages where file_id = ${id}) as pages`);
      expect(written).toEqual({ chunks: 0, pages: 0 });
      await call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE' });
    },
  );
});

/** A file's status once it is ready or failed. */
async function statusWhenSettled(id: string) {
  for (let tries = 0; tries < 300; tries++) {
    const res = await call(`/moduleknowledge/file_status?id=${id}`);
    const { data } = await res.json<{ data: { status: string } }>();
    if (data.status === 'ready' || data.status === 'failed') return data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`file ${id} did not settle`);
}

/** A Word document whose document.xml is cut short in the middle of its compressed data. */
async function corruptDocx(): Promise<Uint8Array> {
  const good = await makeDocx([
    [null, 'Some text that will be cut off before it ends.'.repeat(50)],
  ]);
  const zip = await JSZip.loadAsync(good);
  const xml = await zip.file('word/document.xml')!.async('uint8array');
  const broken = new JSZip();
  for (const entry of Object.values(zip.files)) {
    if (!entry.dir && entry.name !== 'word/document.xml') {
      broken.file(entry.name, await entry.async('uint8array'));
    }
  }
  broken.file('word/document.xml', xml.subarray(0, 200));
  return broken.generateAsync({ type: 'uint8array' });
}

/** A Word document of a few hundred KB whose document.xml inflates to 48 MiB. */
async function bombDocx(): Promise<Uint8Array> {
  const zip = new JSZip();
  const good = await JSZip.loadAsync(await makeDocx([[null, 'x']]));
  for (const entry of Object.values(good.files)) {
    if (!entry.dir && entry.name !== 'word/document.xml') {
      zip.file(entry.name, await entry.async('uint8array'));
    }
  }
  zip.file('word/document.xml', new Uint8Array(48 * 1024 * 1024).fill(0x20), {
    compression: 'DEFLATE',
    compressionOptions: { level: 9 },
  });
  return zip.generateAsync({ type: 'uint8array' });
}

/** GB18030 bytes of a text (the runtime decodes GB18030 but has no encoder for it). */
function gb18030(text: string): Uint8Array {
  const table = gbTable();
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else {
      const pair = table.get(char);
      if (!pair) throw new Error(`no two-byte GB18030 code for ${char}`);
      bytes.push(...pair);
    }
  }
  return new Uint8Array(bytes);
}

// Two-byte GB codes cover the common Chinese characters and full-width punctuation: each one
// decoded once gives the character-to-bytes table.
let table: Map<string, [number, number]> | undefined;
function gbTable(): Map<string, [number, number]> {
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder('gb18030');
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const char = decoder.decode(new Uint8Array([lead, trail]));
      if (!table.has(char)) table.set(char, [lead, trail]);
    }
  }
  return table;
}
