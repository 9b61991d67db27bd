// npm run bench:viewer: opening a citation in the document viewer. Starts an isolated local
// stack, uploads a 34-page PDF of about 1.6 MB (a realistic size: a stream no page draws), and
// in Chromium opens the deep link to a passage on page 30, as a citation's click does: the
// time from the navigation to the passage marked on the drawn page (the viewer's
// `kbchat:passage-shown` mark), and the bytes of the original fetched. The first open loads
// PDF.js and its worker (cold); the others reuse them (warm). The floor is the same work with
// nothing in between: the same PDF.js in the same page draws page 30 with its text layer
// from bytes already in memory (no API call, no range request, no dialog). Loopback only.
// Results: bench-results/viewer.json. Type-checked with the e2e tests (Node and DOM types: it
// hands callbacks to the page), not with dev/.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as PdfJs from 'pdfjs-dist';
import { chromium, type Page } from 'playwright-core';
import { makeManyPagesPdf } from '../dev/fixtures/pdf-builder.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { login, upload } from './client.ts';
import { stats } from './stats.ts';
import { table } from './table.ts';

const PAGES = 34;
const TARGET = 30;
const WARM_SAMPLES = 15;
const FLOOR_SAMPLES = 15;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const pdf = makeManyPagesPdf(PAGES, { ballastBytes: 1_500_000 });
const stack = await launchDev({
  dataDir: await mkdtemp(path.join(tmpdir(), 'kbchat-bench-viewer-')),
  env: { LOG_LEVEL: 'warn', OCR: 'off' },
});
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
try {
  const token = await login(stack.baseUrl, 'admin', 'admin-password');
  const uploaded = await upload(stack.baseUrl, token, pdf, 'register.pdf');
  if (!uploaded.data) throw new Error(`upload failed: ${uploaded.status}`);
  const fileId = uploaded.data.id;
  const hit = await passageOn(stack.baseUrl, token, fileId, `RP-${TARGET}-${PAGES}`);
  const link = `#/doc/${fileId}?page=${hit.page}&chunk=${hit.id}`;

  const context = await browser.newContext({
    baseURL: stack.baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/');
  await page.locator('.login input').nth(0).fill('admin');
  await page.locator('.login input').nth(1).fill('admin-password');
  await page.locator('.login input').nth(1).press('Enter');
  await page.locator('.who-name').waitFor();

  const cold = await open(page, link);
  const warm = [];
  for (let i = 0; i < WARM_SAMPLES; i++) warm.push(await open(page, link));
  const floor = await floorSamples(page, fileId, token);

  const results = {
    pdf: { pages: PAGES, bytes: pdf.length, page: TARGET },
    cold,
    warm: { ...stats(warm.map((s) => s.ms)), bytes: warm[0]?.bytes ?? 0 },
    floor: stats(floor),
  };
  await mkdir('bench-results', { recursive: true });
  await writeFile('bench-results/viewer.json', `${JSON.stringify(results, null, 2)}\n`);
  const share = (bytes: number) => `${bytes} (${((100 * bytes) / pdf.length).toFixed(1)}%)`;
  console.log(
    `viewer: a citation of page ${TARGET} of a ${PAGES}-page PDF of ${pdf.length} bytes, opened to the passage marked\n` +
      table(
        ['', 'median ms', 'p95 ms', 'bytes of the original fetched'],
        [
          ['cold (PDF.js loaded)', cold.ms.toFixed(0), '', share(cold.bytes)],
          [
            `warm (${WARM_SAMPLES})`,
            results.warm.median_ms.toFixed(0),
            results.warm.p95_ms.toFixed(0),
            share(results.warm.bytes),
          ],
          [
            `floor: PDF.js draws the page from memory (${FLOOR_SAMPLES})`,
            results.floor.median_ms.toFixed(0),
            results.floor.p95_ms.toFixed(0),
            '0 (all in memory)',
          ],
        ],
      ),
  );
} finally {
  await browser.close();
  await stack.stop();
}

async function passageOn(base: string, token: string, fileId: string, text: string) {
  const res = await fetch(
    `${base}/moduleknowledge/query?text=${encodeURIComponent(text)}&file_id=${fileId}&mode=keyword&top=1`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  const hit = ((await res.json()) as { data: { id: number; page: number }[] }).data[0];
  if (!hit || hit.page !== TARGET)
    throw new Error(`no passage on page ${TARGET}: ${JSON.stringify(hit)}`);
  return hit;
}

/**
 * Opens the link from the chat (as a citation's click does) until the passage is marked; the
 * bytes are the bodies of the original's responses as the browser's resource timing counts them.
 */
async function open(page: Page, link: string): Promise<{ ms: number; bytes: number }> {
  const opened = await page.evaluate(async (to) => {
    performance.setResourceTimingBufferSize(100_000);
    performance.clearMarks('kbchat:passage-shown');
    const started = performance.now();
    location.hash = to;
    for (;;) {
      const [mark] = performance.getEntriesByName('kbchat:passage-shown');
      if (mark) {
        const bytes = performance
          .getEntriesByType('resource')
          .filter(
            (entry) =>
              entry.startTime >= started && entry.name.includes('/moduleknowledge/download'),
          )
          .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0);
        return { ms: mark.startTime - started, bytes };
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }, link);
  if ((await page.locator('dialog mark.passage').count()) === 0) throw new Error('nothing marked');
  await page.keyboard.press('Escape');
  await page.locator('dialog.viewer').waitFor({ state: 'detached' });
  return opened;
}

/** The same PDF.js, in the same page, drawing the page and its text layer from memory. */
async function floorSamples(page: Page, fileId: string, token: string): Promise<number[]> {
  return page.evaluate(
    async ({ fileId, token, target, samples }) => {
      const chunk = performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .find((name) => /\/assets\/chunks\/pdf-[^/]+\.js$/.test(name));
      if (!chunk) throw new Error('PDF.js was not loaded by the viewer');
      const pdfjs = (await import(chunk)) as typeof PdfJs;
      const bytes = new Uint8Array(
        await (
          await fetch(`/moduleknowledge/download?id=${fileId}`, {
            headers: { Authorization: `Bearer ${token}` },
          })
        ).arrayBuffer(),
      );
      const frame = document.body.appendChild(document.createElement('div'));
      frame.className = 'pdf-page';
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        const task = pdfjs.getDocument({
          data: bytes.slice(),
          cMapUrl: '/assets/pdfjs/cmaps/',
          standardFontDataUrl: '/assets/pdfjs/standard_fonts/',
          useWorkerFetch: false,
          useWasm: false,
          disableWorkerRendering: true,
        });
        const doc = await task.promise;
        const pdfPage = await doc.getPage(target);
        const viewport = pdfPage.getViewport({
          scale: 860 / pdfPage.getViewport({ scale: 1 }).width,
        });
        const canvas = document.createElement('canvas');
        canvas.width = viewport.width;
        canvas.height = viewport.height;
        const layer = document.createElement('div');
        layer.className = 'textLayer';
        frame.replaceChildren(canvas, layer);
        frame.style.setProperty('--total-scale-factor', String(viewport.scale));
        await Promise.all([
          pdfPage.render({ canvas, viewport }).promise,
          new pdfjs.TextLayer({
            textContentSource: pdfPage.streamTextContent(),
            container: layer,
            viewport,
          }).render(),
        ]);
        times.push(performance.now() - started);
        await task.destroy();
      }
      frame.remove();
      return times;
    },
    { fileId, token, target: TARGET, samples: FLOOR_SAMPLES },
  );
}
