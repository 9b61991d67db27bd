/**
 * Text quality of PDF extraction, before and after paragraph reconstruction:
 *
 *   npm run bench:text [-- more.pdf …]
 *
 * For each document (the printed fixtures of dev/fixtures/printed-fixtures.ts, real PDFs that
 * Debian packages ship when they are installed, and any PDF named on the command line), it
 * counts line breaks inside words, spaces between CJK characters, header/footer lines left in,
 * paragraphs, and chunks that end inside a word (bench/text-quality/metrics.ts):
 *
 * - before: pdf.js text items concatenated exactly as main did (a line break after an item
 *   with hasEOL), chunked by main's chunker (bench/text-quality/main-chunker.ts, verbatim);
 * - after: extractPdfText and chunkPages as they are now.
 *
 * Prints a table and writes bench-results/text-quality.json. Third-party PDFs are read where
 * they are installed and never copied into the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getResolvedPDFJS } from 'unpdf';
import { PRINTED_FIXTURES } from '../dev/fixtures/printed-fixtures.ts';
import { chunkPages } from '../workers/knowledge/src/ingest/chunker.ts';
import { extractPdfText } from '../workers/knowledge/src/ingest/pdf-text.ts';
import { chunkPages as mainChunkPages } from './text-quality/main-chunker.ts';
import { measureText, type TextQuality } from './text-quality/metrics.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Real PDFs from Debian packages (poppler-utils' neighbours, texlive-lang-chinese's docs). */
const INSTALLED_PDFS = [
  '/usr/share/doc/libtasn1-doc/libtasn1.pdf',
  '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf',
  '/usr/share/doc/texlive-doc/latex/zhlipsum/zhlipsum.pdf',
  '/usr/share/doc/texlive-doc/latex/ctex-faq/ctex-faq.pdf',
  '/usr/share/doc/texlive-doc/generic/latex-notes-zh-cn/latex-notes-zh-cn.pdf',
];

interface Document {
  name: string;
  bytes: Uint8Array;
}

const documents: Document[] = [
  ...PRINTED_FIXTURES.map((fixture) => ({ name: fixture.name, bytes: fixture.bytes() })),
  ...[...INSTALLED_PDFS, ...process.argv.slice(2)]
    .filter((file) => existsSync(file))
    .map((file) => ({ name: path.basename(file), bytes: new Uint8Array(readFileSync(file)) })),
];

const results: { name: string; before: TextQuality; after: TextQuality }[] = [];
for (const document of documents) {
  const beforePages = await mainExtraction(document.bytes);
  const before = measureText(beforePages, mainChunkPages(beforePages));
  const { pages } = await extractPdfText(document.bytes, { maxPages: 1000 });
  const after = measureText(pages, chunkPages(pages));
  results.push({ name: document.name, before, after });
}

const columns: [string, keyof TextQuality][] = [
  ['breaks in words', 'breaksInsideWords'],
  ['CJK spaces', 'spacesBetweenCjk'],
  ['footer lines', 'furnitureLines'],
  ['paragraphs', 'paragraphs'],
  ['chunks', 'chunks'],
  ['chunks ending mid-word', 'chunksEndingMidWord'],
];
console.log(
  `| document | pages | ${columns.map(([label]) => `${label} (before → after)`).join(' | ')} |`,
);
console.log(`| --- | --- | ${columns.map(() => '---').join(' | ')} |`);
for (const { name, before, after } of results) {
  const cells = columns.map(([, key]) => `${before[key]} → ${after[key]}`);
  console.log(`| ${name} | ${after.pages} | ${cells.join(' | ')} |`);
}
await mkdir(path.join(root, 'bench-results'), { recursive: true });
const out = path.join(root, 'bench-results', 'text-quality.json');
await writeFile(
  out,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), results }, null, 2)}\n`,
);
console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);

// main's getDocument options (workers/knowledge/src/ingest/pdf-text.ts).
const MAIN_PDFJS_OPTIONS = {
  isEvalSupported: false,
  useSystemFonts: false,
  disableFontFace: true,
  verbosity: 0,
} as const;

/** Page texts exactly as main's extractor produced them (see its readPage). */
async function mainExtraction(bytes: Uint8Array): Promise<string[]> {
  const { getDocument } = await getResolvedPDFJS();
  const task = getDocument({ data: bytes.slice(), ...MAIN_PDFJS_OPTIONS });
  try {
    const pdf = await task.promise;
    const pages: string[] = [];
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.hasEOL ? `${item.str}\n` : item.str;
      }
      pages.push(text.replaceAll('\u0000', ''));
      page.cleanup();
    }
    return pages;
  } finally {
    await task.destroy();
  }
}
