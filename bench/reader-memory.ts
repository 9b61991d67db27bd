// The document reader's memory on the worst documents of each format: every hostile document
// (dev/fixtures/hostile-documents.ts, refused by a work budget) and, per format, a document
// just inside every budget, read by the reader worker of a real `npm run dev` stack.
//
//   node bench/run.ts reader            (part of npm run bench:ingest)
//
// The reader runs in a `wrangler dev` process of its own, its V8 old space capped
// (KBCHAT_READER_V8_FLAGS): a document whose live heap does not fit crashes the reader (its
// file then fails as ingest_gave_up, never with the document's own reason). The run at 96 MiB
// ending with every document read or refused by its own reason is the proof that each fits a
// 128 MB Workers isolate with young space to spare; the run at 64 MiB shows the margin. The
// isolate's heap is also sampled through its V8 inspector (KBCHAT_READER_INSPECTOR_PORT) while
// each document is read; the samples come between the isolate's tasks and include garbage V8
// has not collected yet (earlier documents' too: workerd's inspector does not collect on
// request), so they are an upper bound of what each document holds, under the cap.
// Results in bench-results/reader-memory.json.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { docxWithBody, HOSTILE_DOCUMENTS } from '../dev/fixtures/hostile-documents.ts';
import { textItemFloodPdf } from '../dev/fixtures/hostile-pdfs.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { Inspector, sampleHeap } from './budget/inspector.ts';
import { login } from './client.ts';
import { table } from './table.ts';

const MiB = 1024 * 1024;
/** V8 old space for the proof run (with young space, within 128 MB), and for the margin. */
export const READER_CAPS_MIB = [96, 64] as const;

interface Fixture {
  format: string;
  name: string;
  fileName: string;
  bytes(): Promise<Uint8Array>;
}

export interface ReaderMemory {
  format: string;
  name: string;
  fileBytes: number;
  outcome: string;
  heapPeakMiB: number;
  seconds: number;
}

const encode = (text: string) => new TextEncoder().encode(text);
/** `n` characters of Chinese official prose. */
const prose = (n: number) =>
  '关于印发通知要求各地认真贯彻执行本办法的有关规定'.repeat(5).slice(0, n);

/** Per format, a document just inside every budget (document-work-budget.ts, pdf-text.ts). */
const AT_THE_LIMITS: Fixture[] = [
  {
    format: 'docx',
    name: 'Word: 199,000 paragraphs, 3.98 million characters',
    fileName: 'limit.docx',
    bytes: () => docxWithBody(`<w:p><w:r><w:t>${prose(20)}</w:t></w:r></w:p>`.repeat(199_000)),
  },
  {
    format: 'html',
    name: 'HTML: 99,000 paragraphs, 3.96 million characters',
    fileName: 'limit.html',
    bytes: async () => encode(`<!doctype html>${`<p>${prose(40)}`.repeat(99_000)}`),
  },
  {
    format: 'markdown',
    name: 'Markdown: 99,000 paragraphs, 3.96 million characters',
    fileName: 'limit.md',
    bytes: async () => encode(`# 总则\n\n${`${prose(38)}\n\n`.repeat(99_000)}`),
  },
  {
    format: 'text',
    name: 'text: 199,000 paragraphs, 3.98 million characters',
    fileName: 'limit.txt',
    bytes: async () => encode(`${prose(18)}\n\n`.repeat(199_000)),
  },
  {
    format: 'pdf',
    name: 'PDF: 25 pages (one step) of 18,000 text items each',
    fileName: 'limit.pdf',
    bytes: () => textItemFloodPdf(10_000, 25),
  },
];

const HOSTILE: Fixture[] = [
  ...HOSTILE_DOCUMENTS.map((doc) => ({ ...doc })),
  {
    format: 'pdf',
    name: 'PDF: 8 pages of a 200,000-item text flood',
    fileName: 'flood.pdf',
    bytes: () => textItemFloodPdf(200_000, 8),
  },
];

export async function measureReaderMemory(out: string): Promise<ReaderMemory[][]> {
  const runs: ReaderMemory[][] = [];
  for (const cap of READER_CAPS_MIB) {
    const rows = await measureOnce(cap);
    print(rows, cap);
    runs.push(rows);
  }
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(runs, null, 2)}\n`);
  return runs;
}

async function measureOnce(capMiB: number): Promise<ReaderMemory[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-reader-memory-'));
  const inspectorPort = await freePort();
  const stack = await launchDev({
    dataDir,
    env: {
      KBCHAT_READER_INSPECTOR_PORT: String(inspectorPort),
      KBCHAT_READER_V8_FLAGS: `--max-old-space-size=${capMiB}`,
      // One try of a step that failed: a reader that crashed on a document is not asked again.
      KBCHAT_VAR_INGEST_RETRY_LIMIT: '1',
      KBCHAT_VAR_INGEST_RETRY_DELAY_MS: '200',
    },
  });
  const rows: ReaderMemory[] = [];
  try {
    const token = await login(stack.baseUrl, 'admin', 'admin-password');
    for (const fixture of [...AT_THE_LIMITS, ...HOSTILE]) {
      const bytes = await fixture.bytes();
      // The reader may have been restarted (a crash): connect afresh for every document.
      const inspector = await connectWhenAnswering(inspectorPort);
      const heap = sampleHeap(inspector, 10, 5_000);
      const started = Date.now();
      const outcome = await ingest(stack.baseUrl, token, bytes, fixture.fileName).finally(() =>
        heap.stop().catch(() => undefined),
      );
      inspector.close();
      rows.push({
        format: fixture.format,
        name: fixture.name,
        fileBytes: bytes.length,
        outcome,
        heapPeakMiB: round(Math.max(0, ...heap.samples.map((s) => s.used)) / MiB),
        seconds: round((Date.now() - started) / 1000),
      });
      log(JSON.stringify(rows.at(-1)));
    }
    const crashes = (
      (await readFile(await stackLog(dataDir), 'utf8')).match(/runtime crashed/g) ?? []
    ).length;
    log(`reader runtime crashes: ${crashes}`);
    return rows;
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The reader's inspector, once its isolate answers (after a crash, wrangler restarts it). */
async function connectWhenAnswering(port: number): Promise<Inspector> {
  for (const deadline = Date.now() + 120_000; ;) {
    const inspector = await Inspector.connect(port).catch(() => undefined);
    if (inspector) {
      const answered = await inspector.heap(2_000).then(
        () => true,
        () => false,
      );
      if (answered) return inspector;
      inspector.close();
    }
    if (Date.now() > deadline) throw new Error("the reader's inspector does not answer");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Uploads without waiting and follows the file to its end: `ready` or its error code. */
async function ingest(base: string, token: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new File([bytes], name));
  const res = await fetch(`${base}/moduleknowledge/upload?async=true`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { data?: { id: string }; code?: string };
  if (!body.data) return `refused at upload: ${body.code ?? res.status}`;
  for (const deadline = Date.now() + 10 * 60_000; Date.now() < deadline;) {
    const status = await fetch(`${base}/moduleknowledge/file_status?id=${body.data.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const { data } = (await status.json()) as {
      data: { status: string; error?: { code: string } };
    };
    if (data.status === 'ready') return 'ready';
    if (data.status === 'failed') return data.error?.code ?? 'failed';
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return 'still processing after 10 minutes';
}

async function stackLog(dataDir: string): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const name = (await readdir(dataDir)).find((file) => /^stack-\d+\.log$/.test(file));
  return path.join(dataDir, name ?? 'missing.log');
}

function print(rows: ReaderMemory[], capMiB: number): void {
  console.log(
    `\nDocument reader, V8 old space capped at ${capMiB} MiB (a document that does not fit crashes the reader: ingest_gave_up)`,
  );
  console.log(
    table(
      ['format', 'document', 'size', 'outcome', 'reader heap peak MiB', 's'],
      rows.map((r) => [
        r.format,
        r.name,
        `${(r.fileBytes / 1e6).toFixed(2)} MB`,
        r.outcome,
        String(r.heapPeakMiB),
        String(r.seconds),
      ]),
    ),
  );
  const worst = new Map<string, ReaderMemory>();
  for (const row of rows) {
    if ((worst.get(row.format)?.heapPeakMiB ?? -1) < row.heapPeakMiB) worst.set(row.format, row);
  }
  const crashed = rows.filter((row) => row.outcome === 'ingest_gave_up');
  console.log(
    crashed.length === 0
      ? `every document read or refused by its own reason within ${capMiB} MiB of old space`
      : `did not fit in ${capMiB} MiB: ${crashed.map((row) => row.name).join('; ')}`,
  );
  console.log('highest sample per format (an upper bound; limit: 128 MB per isolate):');
  for (const [format, row] of worst)
    console.log(`  ${format.padEnd(9)} ${row.heapPeakMiB} MiB  ${row.name}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const round = (value: number) => Math.round(value * 10) / 10;
const log = (message: string) => {
  if (process.env.KBCHAT_BENCH_VERBOSE) console.error(`[reader-memory] ${message}`);
};
