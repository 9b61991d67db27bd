/**
 * The service's settings, read once from the environment. Every setting has a default; an
 * invalid value stops the service at start with a message naming the variable.
 */
export interface Settings {
  /** HOST: the address to listen on. */
  host: string;
  /** PORT: the port to listen on; 0 picks a free one. */
  port: number;
  /** OCR_API_KEY: when set, every /v1 request needs `Authorization: Bearer <key>`. */
  apiKey: string | undefined;
  /** OCR_DPI: the resolution pages are rendered at. */
  dpi: number;
  /** OCR_MAX_PAGE_PIXELS: a page rendering larger than this is rendered at a lower dpi. */
  maxPagePixels: number;
  /**
   * OCR_MAX_DETECT_PIXELS: text is found on the rendering scaled down to at most this many
   * pixels (the lines are then read from the full rendering).
   */
  maxDetectPixels: number;
  /** OCR_MAX_IMAGE_PIXELS: images inside the PDF larger than this are not decoded. */
  maxImagePixels: number;
  /** OCR_MAX_LINES: more text boxes than this on one page → 422 page_too_complex. */
  maxLines: number;
  /** OCR_PAGE_TIME_MS: a page still being read after this long → 422 page_too_complex. */
  pageTimeMs: number;
  /**
   * OCR_RENDER_TIME_MS: a page still rendering after this long → 422 page_too_complex. Real
   * pages render in a second or two (a JPEG scan's decoding is most of it); a page whose
   * drawing fans out (form XObjects drawing each other a billion times) would take the whole
   * page budget from the reading.
   */
  renderTimeMs: number;
  /** OCR_MAX_BODY_BYTES: a larger request body → 413 document_too_large. */
  maxBodyBytes: number;
  /** OCR_MAX_PAGES: the most pages one request may ask for (last − first + 1). */
  maxPages: number;
  /** OCR_QUEUE_LENGTH: requests that may wait for the engine; one more → 503 busy. */
  queueLength: number;
  /** OCR_THREADS: ONNX Runtime threads per inference; 0 lets it use every core. */
  threads: number;
  /**
   * OCR_WARM_UP (`on`/`off`): after start, run detection once on a blank A4 page at OCR_DPI
   * (requests wait for it), so that the first A4 page is not the slow first run.
   */
  warmUp: boolean;
}

export const DEFAULTS: Settings = {
  host: '127.0.0.1',
  port: 8790,
  apiKey: undefined,
  dpi: 200,
  maxPagePixels: 12_000_000,
  maxDetectPixels: 4_000_000,
  maxImagePixels: 40_000_000,
  maxLines: 1500,
  pageTimeMs: 60_000,
  renderTimeMs: 15_000,
  maxBodyBytes: 100 * 1024 * 1024,
  maxPages: 8,
  queueLength: 8,
  threads: 0,
  warmUp: true,
};

type NumericKey = {
  [K in keyof Settings]: Settings[K] extends number ? K : never;
}[keyof Settings];

/** [variable, setting, smallest allowed, largest allowed] */
const NUMERIC: [string, NumericKey, number, number][] = [
  ['PORT', 'port', 0, 65_535],
  ['OCR_DPI', 'dpi', 36, 600],
  ['OCR_MAX_PAGE_PIXELS', 'maxPagePixels', 100_000, 100_000_000],
  ['OCR_MAX_DETECT_PIXELS', 'maxDetectPixels', 10_000, 100_000_000],
  ['OCR_MAX_IMAGE_PIXELS', 'maxImagePixels', 10_000, 400_000_000],
  ['OCR_MAX_LINES', 'maxLines', 1, 100_000],
  ['OCR_PAGE_TIME_MS', 'pageTimeMs', 100, 3_600_000],
  ['OCR_RENDER_TIME_MS', 'renderTimeMs', 100, 3_600_000],
  ['OCR_MAX_BODY_BYTES', 'maxBodyBytes', 1, 2 ** 31 - 1],
  ['OCR_MAX_PAGES', 'maxPages', 1, 1000],
  ['OCR_QUEUE_LENGTH', 'queueLength', 0, 10_000],
  ['OCR_THREADS', 'threads', 0, 256],
];

/** The settings from `env`; throws an Error naming the variable when a value is invalid. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const settings: Settings = { ...DEFAULTS };
  if (env.HOST) settings.host = env.HOST;
  if (env.OCR_API_KEY) settings.apiKey = env.OCR_API_KEY;
  const warmUp = env.OCR_WARM_UP?.trim().toLowerCase();
  if (warmUp) {
    if (!['on', 'off', '1', '0', 'true', 'false'].includes(warmUp)) {
      throw new Error(`OCR_WARM_UP must be on or off, not "${env.OCR_WARM_UP}".`);
    }
    settings.warmUp = ['on', '1', 'true'].includes(warmUp);
  }
  for (const [variable, key, min, max] of NUMERIC) {
    const raw = env[variable]?.trim().replaceAll('_', '');
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      throw new Error(`${variable} must be a whole number from ${min} to ${max}, not "${raw}".`);
    }
    settings[key] = value;
  }
  return settings;
}
