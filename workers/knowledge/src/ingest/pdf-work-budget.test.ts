import { describe, expect, it } from 'vitest';
import { hostilePdfs } from '../../../../dev/fixtures/hostile-pdfs';
import { makeManyPagesPdf } from '../../../../dev/fixtures/pdf-builder';
import { CHINESE_POLICY_PRINTED } from '../../../../dev/fixtures/printed-fixtures';
import { extractPdfLayout, extractPdfText, PdfTextError } from './pdf-text';
import { PdfWorkMeter, registeredMeterCount } from './pdf-work-budget';

const LIMITS = { maxPages: 500 };
const corpus = await hostilePdfs({ oversize: false, bombMiB: 16 });
const bytesOf = (name: string) => {
  const pdf = corpus.find((entry) => entry.name === name);
  if (pdf === undefined) throw new Error(name);
  return pdf.bytes;
};

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof PdfTextError ? error.reason : String(error)),
  );
}

describe('the per-document work budget', () => {
  it.each([
    'shared-content-20-pages',
    'shared-content-500-pages',
    'many-moderate-streams',
    'shared-raw-content-200-pages',
  ])(
    'refuses %s as too_complex, quickly',
    async (name) => {
      const started = Date.now();
      expect(await reasonOf(extractPdfText(bytesOf(name), LIMITS))).toBe('too_complex');
      // About a second when the machine is idle; the bound catches the unbounded work of before
      // (7 s and more) with room for a machine busy with other test runs.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(registeredMeterCount()).toBe(0);
      // The test's own time limit above the bound it checks (vitest's default, 5 s, cut it short
      // on a machine busy with other test runs before the 10 s bound could say anything).
    },
    20_000,
  );

  it('is a parameter: a small budget refuses an ordinary document', async () => {
    const bytes = CHINESE_POLICY_PRINTED.bytes();

    expect(
      await reasonOf(extractPdfText(bytes, { ...LIMITS, budget: { maxParsedBytes: 1000 } })),
    ).toBe('too_complex');
    const { used } = await extractPdfText(bytes, LIMITS);
    expect(used.parsedBytes).toBeGreaterThan(1000);
  });

  it('holds over batches: what earlier batches used counts', async () => {
    const bytes = CHINESE_POLICY_PRINTED.bytes();
    const first = await extractPdfLayout(bytes, { ...LIMITS, pages: { first: 1, last: 3 } });
    const second = await extractPdfLayout(bytes, { ...LIMITS, pages: { first: 4, last: 5 } });
    // Enough for either batch alone, not for both.
    const budget = {
      maxParsedBytes: Math.max(first.used.parsedBytes, second.used.parsedBytes) + 10,
    };
    const pages = { first: 4, last: 5 };

    expect(
      await reasonOf(
        extractPdfLayout(bytes, { ...LIMITS, budget, pages, alreadyUsed: first.used }),
      ),
    ).toBe('too_complex');
    expect(await reasonOf(extractPdfLayout(bytes, { ...LIMITS, budget, pages }))).toBe('accepted');
  });

  it('meters two documents read at once apart', async () => {
    const [bomb, ordinary] = await Promise.all([
      reasonOf(extractPdfText(bytesOf('shared-content-20-pages'), LIMITS)),
      reasonOf(extractPdfText(CHINESE_POLICY_PRINTED.bytes(), LIMITS)),
    ]);

    expect(bomb).toBe('too_complex');
    expect(ordinary).toBe('accepted');
  });
});

describe('PdfWorkMeter', () => {
  it('refuses every charge once a budget is spent', () => {
    const meter = new PdfWorkMeter({ maxDecodedBytes: 10, maxParsedBytes: 10 });

    expect(meter.charge('decodedBytes', 10)).toBe(true);
    expect(meter.charge('decodedBytes', 1)).toBe(false);
    expect(meter.exceeded).toBe('decodedBytes');
    expect(meter.charge('parsedBytes', 1)).toBe(false);
  });

  it('refuses budgets that are not positive integers', () => {
    expect(() => new PdfWorkMeter({ maxDecodedBytes: 0, maxParsedBytes: 1 })).toThrow(RangeError);
  });
});

describe('the meter charges what was read, once', () => {
  it('a 500-page document is charged about its own size, not the square of it', async () => {
    // Uncompressed content streams are windows on the file; charging them from the file's
    // start made page n cost every page before it (500 plain pages: 355 MB, refused).
    const bytes = makeManyPagesPdf(500);
    const { used } = await extractPdfLayout(bytes, { maxPages: 500 });
    expect(used.parsedBytes).toBeGreaterThan(0);
    expect(used.parsedBytes).toBeLessThan(2 * bytes.length);
  });
});
