// OCR benchmark: how well and how fast the OCR service (services/ocr) reads scanned pages.
//
//   npm run bench:ocr                                # starts the service on a free loopback port
//   node bench/ocr.ts --url http://127.0.0.1:8790    # a service already running (no memory
//                                                    # figures unless --pid names its process)
//
// The service is started as its own program (`node services/ocr/src/server.ts`, PORT=0), not
// through dev/stack, so that this process knows its pid and can read its memory from /proc.
//
// accuracy    every scanned fixture of dev/fixtures/scanned-pdfs.ts (drawn from the born-digital
//             fixtures' own layouts, then degraded like a scan) read through POST /v1/read;
//             each page's text compared with the text printed on it (bench/ocr/accuracy.ts):
//             Han characters and digits after NFKC by edit distance (target ≥ 98 %), letters
//             and digits for the English page, punctuation on its own.
// throughput  the 10-page scan (policy-scan-10) through the service over loopback HTTP, in
//             requests of at most --pages-per-request pages one after the other, against its
//             floor: the same work with nothing in between, i.e. the service's own core
//             (read-pages.ts: PDF.js + @napi-rs/canvas render, PP-OCRv4 on ONNX Runtime) called
//             in this process with the same page ranges, after the service has stopped.
// memory      the service process's resident memory from /proc/<pid>/status: idle after start,
//             then VmHWM reset (clear_refs) before the first read, so that it is the exact peak
//             while reading; VmRSS is also sampled every 100 ms. The floor's process the same.
//
// Not measured here (they need the whole stack): a 10-page scan ready end to end in ≤ 90 s, and
// the knowledge isolate's heap while a 50-page scan ingests (dev/fixtures/scanned-pdfs.ts,
// chinesePolicyScan(50), is that scan).
//
// Options: --url, --pid, --fixtures policy-scan-2,table-scan (default: every scan),
// --pages-per-request 1 (as the ingest workflow asks; up to the service's OCR_MAX_PAGES, 8),
// --no-floor,
// --out bench-results/ocr.json. OCR_API_KEY, when set, is sent as the bearer token. Loopback
// only; every request has a timeout and the whole run a deadline.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  SCANNED_FIXTURE_NAMES,
  scannedFixture,
  type ScannedFixtureName,
  type ScannedPdf,
} from '../dev/fixtures/scanned-pdfs.ts';
import { accuracy, score, sum, type Score } from './ocr/accuracy.ts';
import { stats, type Stats } from './stats.ts';
import { table } from './table.ts';
import type { OcrPage } from '#shared/contracts/ocr';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    pid: { type: 'string' },
    fixtures: { type: 'string' },
    'pages-per-request': { type: 'string', default: '1' },
    'no-floor': { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(root, 'bench-results', 'ocr.json') },
  },
  allowPositionals: false,
});

const RUN_DEADLINE_MS = 30 * 60_000;
const START_TIMEOUT_MS = 120_000;
/** Per page of a request: a busy 2-core machine reads a page in 5–15 s. */
const PAGE_TIMEOUT_MS = 90_000;
const THROUGHPUT_FIXTURE: ScannedFixtureName = 'policy-scan-10';
const TARGET_ACCURACY = 98;
/** The end-to-end target this benchmark does not measure: a 10-page scan ready in ≤ 90 s. */
const TARGET_SECONDS_10_PAGES = 90;

const scans = SCANNED_FIXTURE_NAMES.filter((name) => name !== 'policy-font-fault');
const chosen = (values.fixtures?.split(',').map((name) => name.trim()) ?? scans) as string[];
for (const name of chosen) {
  if (!(scans as readonly string[]).includes(name)) {
    fail(`unknown fixture "${name}"; choose from: ${scans.join(', ')}`);
  }
}
const pagesPerRequest = Number(values['pages-per-request']);
if (!Number.isInteger(pagesPerRequest) || pagesPerRequest < 1) {
  fail('--pages-per-request must be a positive integer');
}

// ---------------------------------------------------------------------------------------------
// Clean-up on every way out

const cleanups: (() => Promise<void>)[] = [];
let exiting = false;

async function exitWith(code: number, message?: string): Promise<never> {
  if (message) console.error(`bench:ocr: ${message}`);
  if (!exiting) {
    exiting = true;
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => console.error(`bench:ocr: clean-up: ${error}`));
    }
  }
  process.exit(code);
}

function fail(message: string): never {
  console.error(`bench:ocr: ${message}`);
  process.exit(1);
}

setTimeout(
  () => void exitWith(1, `gave up after ${RUN_DEADLINE_MS / 60_000} minutes`),
  RUN_DEADLINE_MS,
).unref();
process.on('SIGINT', () => void exitWith(130, 'interrupted'));
process.on('SIGTERM', () => void exitWith(143, 'terminated'));
process.on('uncaughtException', (error) => void exitWith(1, error.stack ?? error.message));
process.on('unhandledRejection', (error) => void exitWith(1, String(error)));

// ---------------------------------------------------------------------------------------------
// The service

interface Service {
  baseUrl: string;
  pid: number | undefined;
  close(): Promise<void>;
}

/**
 * Starts services/ocr (`node services/ocr/src/server.ts`, PORT=0) and waits for its line
 * `kbchat-ocr listening on http://…`; its /health must then answer.
 */
async function startService(): Promise<Service> {
  const child = spawn(process.execPath, [path.join(root, 'services/ocr/src/server.ts')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => stopChild(child);
  cleanups.push(stop);
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the OCR service did not start:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      const url = /kbchat-ocr listening on (http:\/\/[^\s]+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the OCR service exited with code ${code}:\n${output}`));
    });
  });
  const health = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(10_000) });
  if (health.status !== 200) throw new Error(`GET /health answered ${health.status}`);
  return { baseUrl, pid: child.pid, close: stop };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Pages first..last (1-based) read by the service. */
async function readPages(
  baseUrl: string,
  bytes: Uint8Array,
  first: number,
  last: number,
): Promise<OcrPage[]> {
  const headers: Record<string, string> = { 'Content-Type': 'application/pdf' };
  if (process.env.OCR_API_KEY) headers.Authorization = `Bearer ${process.env.OCR_API_KEY}`;
  const res = await fetch(`${baseUrl}/v1/read?first=${first}&last=${last}`, {
    method: 'POST',
    headers,
    body: bytes,
    signal: AbortSignal.timeout(PAGE_TIMEOUT_MS * (last - first + 1)),
  });
  const body = await res.text();
  if (res.status !== 200) {
    throw new Error(`POST /v1/read pages ${first}-${last}: ${res.status} ${body.slice(0, 300)}`);
  }
  return (JSON.parse(body) as { pages: OcrPage[] }).pages;
}

/** Every page of a PDF, in requests of at most `pagesPerRequest` pages; time per request. */
async function readDocument(baseUrl: string, fixture: ScannedPdf) {
  const pages: OcrPage[] = [];
  const requestMs: number[] = [];
  const count = fixture.expected.length;
  for (let first = 1; first <= count; first += pagesPerRequest) {
    const last = Math.min(count, first + pagesPerRequest - 1);
    const started = performance.now();
    pages.push(...(await readPages(baseUrl, fixture.bytes, first, last)));
    requestMs.push(performance.now() - started);
  }
  if (pages.length !== count) throw new Error(`${fixture.name}: ${pages.length} of ${count} pages`);
  return { pages, requestMs };
}

// ---------------------------------------------------------------------------------------------
// Memory of a process, from /proc

/** VmRSS and VmHWM of a process in MiB; undefined where /proc is not readable. */
function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Resets a process's VmHWM to its current VmRSS (`echo 5 > /proc/<pid>/clear_refs`, Linux 4.0
 * and later, same user): VmHWM is then the peak since this moment. False where not allowed.
 */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples a value every 100 ms until stopped; returns the highest. */
function sampleMax(read: () => number | undefined) {
  let max = read() ?? 0;
  const timer = setInterval(() => {
    max = Math.max(max, read() ?? 0);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, read() ?? 0);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Accuracy

interface FixtureResult {
  name: string;
  /** Chinese text (Han characters printed on it): Han + digits is its measure. */
  chinese: boolean;
  pages: number;
  seconds: number;
  hanDigits: Score;
  lettersDigits: Score;
  punctuation: Score;
  perPage: {
    page: number;
    hanDigits: number | null;
    punctuation: number | null;
    ocrConfidence: number;
  }[];
  /** What the service read on each page (its lines, one per line), for a look at the errors. */
  texts: string[];
}

/** The service's lines of a page, in the order it gives them, one per line. */
const pageText = (page: OcrPage) => page.lines.map((line) => line.text).join('\n');

function scoreFixture(fixture: ScannedPdf, pages: OcrPage[], seconds: number): FixtureResult {
  const scores = pages.map((page, index) => {
    const printed = fixture.drawn[index] ?? '';
    const text = pageText(page);
    return {
      hanDigits: score(printed, text, 'hanDigits'),
      lettersDigits: score(printed, text, 'lettersDigits'),
      punctuation: score(printed, text, 'punctuation'),
      confidence: page.confidence,
    };
  });
  return {
    name: fixture.name,
    chinese: /\p{Script=Han}/u.test(fixture.drawn.join('')),
    pages: pages.length,
    seconds: round(seconds, 1),
    hanDigits: sum(scores.map((s) => s.hanDigits)),
    lettersDigits: sum(scores.map((s) => s.lettersDigits)),
    punctuation: sum(scores.map((s) => s.punctuation)),
    perPage: scores.map((s, index) => ({
      page: index + 1,
      hanDigits: roundOrNull(accuracy(s.hanDigits)),
      punctuation: roundOrNull(accuracy(s.punctuation)),
      ocrConfidence: round(s.confidence, 3),
    })),
    texts: pages.map(pageText),
  };
}

// ---------------------------------------------------------------------------------------------
// The floor: the service's own modules in this process

interface PageTimings {
  page: number;
  dpi: number;
  renderMs: number;
  detectMs: number;
  recogniseMs: number;
}

/** What the floor uses of services/ocr/src (read-pages.ts, recognise.ts, settings.ts). */
interface FloorModules {
  readPages(
    pdf: Uint8Array,
    first: number,
    last: number,
    options: {
      engine: unknown;
      settings: unknown;
      onPageEnd?(timings: PageTimings | undefined): void;
    },
  ): Promise<OcrPage[]>;
  loadEngine(options?: { threads?: number }): Promise<unknown>;
  readSettings(env?: NodeJS.ProcessEnv): unknown;
}

/**
 * Imported at run time by path: bench/ measures the service as it is, and its modules are not
 * part of the tooling's TypeScript program.
 */
async function floorModules(): Promise<FloorModules> {
  const load = (file: string) =>
    import(pathToFileURL(path.join(root, 'services/ocr/src', file)).href);
  const [read, recognise, settings] = await Promise.all([
    load('read-pages.ts'),
    load('recognise.ts'),
    load('settings.ts'),
  ]);
  return { ...read, ...recognise, ...settings } as FloorModules;
}

/**
 * The service's own core, readPages (open the PDF, render each page, read it with the engine),
 * called in this process with the settings the service would read from this environment, one
 * page at a time as the HTTP requests ask for them: the HTTP server, the request queue and the
 * loopback transfer are what the service adds to it.
 */
async function measureFloor(fixture: ScannedPdf, warmUp: ScannedPdf) {
  const modules = await floorModules();
  const settings = modules.readSettings({ ...process.env, PORT: '0' });
  const loadStarted = performance.now();
  const engine = await modules.loadEngine(settings as { threads?: number });
  const loadMs = performance.now() - loadStarted;
  await modules.readPages(warmUp.bytes.slice(), 1, 1, { engine, settings });
  const peakReset = resetPeak(process.pid);
  const rss = sampleMax(() => process.memoryUsage().rss / 1024 / 1024);
  const timings: PageTimings[] = [];
  const pages: OcrPage[] = [];
  const count = fixture.expected.length;
  const started = performance.now();
  for (let first = 1; first <= count; first += pagesPerRequest) {
    const last = Math.min(count, first + pagesPerRequest - 1);
    pages.push(
      ...(await modules.readPages(fixture.bytes.slice(), first, last, {
        engine,
        settings,
        onPageEnd: (timing) => timing && timings.push(timing),
      })),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    engineLoadMs: Math.round(loadMs),
    dpi: pages[0]?.dpi ?? 0,
    pages: pages.length,
    seconds: round(seconds, 1),
    pagesPerMinute: round((60 * pages.length) / seconds, 2),
    render: stats(timings.map((t) => t.renderMs)),
    detect: stats(timings.map((t) => t.detectMs)),
    recognise: stats(timings.map((t) => t.recogniseMs)),
    hanDigits: roundOrNull(
      accuracy(
        sum(
          pages.map((page, index) =>
            score(fixture.drawn[index] ?? '', pageText(page), 'hanDigits'),
          ),
        ),
      ),
    ),
    // VmHWM since the reset when it worked (exact), else the highest 100 ms sample.
    benchProcessPeakRssMiB: round(
      peakReset ? (memoryOf(process.pid)?.hwm ?? rss.stop()) : rss.stop(),
      0,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// The run

log(`generating the scanned fixtures (cached in dev/fixtures/out/scans) …`);
const fixtures = new Map<string, ScannedPdf>();
for (const name of new Set([...chosen, THROUGHPUT_FIXTURE, 'policy-scan-2'])) {
  fixtures.set(name, await scannedFixture(name as ScannedFixtureName));
}
const loadBefore = os.loadavg();

let service: Service;
if (values.url) {
  const url = new URL(values.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    fail(`--url must be on loopback, not ${values.url}`);
  }
  service = {
    baseUrl: url.origin,
    pid: values.pid ? Number(values.pid) : undefined,
    close: async () => {},
  };
} else {
  log('starting the OCR service …');
  const started = performance.now();
  service = await startService();
  log(`the OCR service answers after ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const idle = service.pid === undefined ? undefined : memoryOf(service.pid);
const servicePeakReset = service.pid !== undefined && resetPeak(service.pid);
// Warm-up: the first page read after start pays for anything loaded lazily.
await readPages(service.baseUrl, fixtures.get('policy-scan-2')!.bytes, 1, 1);
const rssWhileReading =
  service.pid === undefined ? undefined : sampleMax(() => memoryOf(service.pid!)?.rss);

const results: FixtureResult[] = [];
let throughput:
  | { pages: number; seconds: number; pagesPerMinute: number; request: Stats; dpi: number }
  | undefined;
for (const name of new Set([THROUGHPUT_FIXTURE, ...chosen])) {
  const fixture = fixtures.get(name)!;
  log(`reading ${name} (${fixture.expected.length} pages) …`);
  const started = performance.now();
  const { pages, requestMs } = await readDocument(service.baseUrl, fixture);
  const seconds = (performance.now() - started) / 1000;
  if (name === THROUGHPUT_FIXTURE) {
    throughput = {
      pages: pages.length,
      seconds: round(seconds, 1),
      pagesPerMinute: round((60 * pages.length) / seconds, 2),
      request: stats(requestMs),
      dpi: pages[0]?.dpi ?? 0,
    };
  }
  if (chosen.includes(name)) results.push(scoreFixture(fixture, pages, seconds));
}
const peakRss = rssWhileReading?.stop();
const finalMemory = service.pid === undefined ? undefined : memoryOf(service.pid);
await service.close();

let floor: Awaited<ReturnType<typeof measureFloor>> | { error: string } | undefined;
if (!values['no-floor']) {
  log('the floor: render + recognise in this process …');
  floor = await measureFloor(
    fixtures.get(THROUGHPUT_FIXTURE)!,
    fixtures.get('policy-scan-2')!,
  ).catch((error: unknown) => ({ error: String(error) }));
}
const loadAfter = os.loadavg();

// ---------------------------------------------------------------------------------------------
// Report

const chinese = results.filter((r) => r.chinese);
const overall = {
  hanDigits: roundOrNull(accuracy(sum(chinese.map((r) => r.hanDigits)))),
  punctuation: roundOrNull(accuracy(sum(chinese.map((r) => r.punctuation)))),
  pages: chinese.reduce((total, r) => total + r.pages, 0),
};
const percent = (value: number | null) => (value === null ? '—' : `${value.toFixed(2)} %`);

console.log(
  `\nOCR accuracy against the text printed on each page (after NFKC; target: Han characters and digits ≥ ${TARGET_ACCURACY} %)`,
);
console.log(
  table(
    ['fixture', 'pages', 'Han + digits', 'letters + digits', 'punctuation', 's / page'],
    results.map((r) => [
      r.name,
      String(r.pages),
      r.chinese ? percent(roundOrNull(accuracy(r.hanDigits))) : '—',
      percent(roundOrNull(accuracy(r.lettersDigits))),
      percent(roundOrNull(accuracy(r.punctuation))),
      (r.seconds / r.pages).toFixed(1),
    ]),
  ),
);
console.log(
  `Chinese scans together (${overall.pages} pages): Han + digits ${percent(overall.hanDigits)} ` +
    `(${overall.hanDigits !== null && overall.hanDigits >= TARGET_ACCURACY ? 'meets' : 'misses'} the target), punctuation ${percent(overall.punctuation)}`,
);

if (throughput) {
  console.log(
    `\nOCR throughput: ${THROUGHPUT_FIXTURE} (${throughput.pages} pages) at ${throughput.dpi} dpi`,
  );
  const rows = [
    [
      `service: POST /v1/read, ${pagesPerRequest === 1 ? 'one page' : `≤ ${pagesPerRequest} pages`} a request`,
      String(throughput.seconds),
      String(throughput.pagesPerMinute),
      (throughput.seconds / throughput.pages).toFixed(2),
    ],
  ];
  if (floor && !('error' in floor)) {
    rows.unshift([
      'floor: render + recognise in-process',
      String(floor.seconds),
      String(floor.pagesPerMinute),
      (floor.seconds / floor.pages).toFixed(2),
    ]);
  }
  console.log(table(['path', 's', 'pages / min', 's / page'], rows));
  if (floor && !('error' in floor)) {
    console.log(
      `floor per page (medians): render ${(floor.render.median_ms / 1000).toFixed(2)} s, detect ${(floor.detect.median_ms / 1000).toFixed(2)} s, recognise ${(floor.recognise.median_ms / 1000).toFixed(2)} s; engine load ${(floor.engineLoadMs / 1000).toFixed(1)} s; Han + digits ${percent(floor.hanDigits)}; this process's peak RSS ${floor.benchProcessPeakRssMiB} MiB`,
    );
  } else if (floor) {
    console.log(`floor not measured: ${floor.error}`);
  }
  console.log(
    `target (end to end, not measured here): a 10-page scan ready in ≤ ${TARGET_SECONDS_10_PAGES} s; OCR alone took ${throughput.seconds} s of it`,
  );
}

if (idle && finalMemory && peakRss !== undefined) {
  console.log(
    `\nOCR service memory (/proc/${service.pid}/status): ${idle.rss.toFixed(0)} MiB idle after start, ` +
      `${peakRss.toFixed(0)} MiB highest VmRSS sample while reading, ` +
      `${finalMemory.hwm.toFixed(0)} MiB VmHWM (${servicePeakReset ? 'peak while reading, exact' : 'lifetime peak'})`,
  );
}
console.log(
  `load average (1 min) ${loadBefore[0]!.toFixed(2)} before, ${loadAfter[0]!.toFixed(2)} after, on ${os.cpus().length} cores`,
);

const report = {
  measured_at: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    loadavg_before: loadBefore,
    loadavg_after: loadAfter,
  },
  pages_per_request: pagesPerRequest,
  accuracy: {
    target_han_digits_percent: TARGET_ACCURACY,
    overall_chinese: overall,
    fixtures: results.map((r) => ({
      ...r,
      hanDigitsPercent: roundOrNull(accuracy(r.hanDigits)),
      lettersDigitsPercent: roundOrNull(accuracy(r.lettersDigits)),
      punctuationPercent: roundOrNull(accuracy(r.punctuation)),
    })),
  },
  throughput: { fixture: THROUGHPUT_FIXTURE, service: throughput, floor },
  memory:
    idle && finalMemory && peakRss !== undefined
      ? {
          idle_rss_mib: round(idle.rss, 0),
          peak_rss_reading_mib: round(peakRss, 0),
          vm_hwm_mib: round(finalMemory.hwm, 0),
          vm_hwm_since: servicePeakReset ? 'reading began' : 'start',
        }
      : null,
};
await mkdir(path.dirname(values.out!), { recursive: true });
await writeFile(values.out!, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nresults in ${path.relative(process.cwd(), values.out!)}`);
await exitWith(0);

// ---------------------------------------------------------------------------------------------

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function roundOrNull(value: number | null): number | null {
  return value === null ? null : round(value, 2);
}

function log(message: string): void {
  console.error(`[bench:ocr] ${message}`);
}
