import { describe, expect, it } from 'vitest';
import { DEFAULTS, readSettings } from './settings.ts';

describe('readSettings', () => {
  it('has a default for everything', () => {
    expect(readSettings({})).toEqual(DEFAULTS);
    expect(DEFAULTS).toMatchObject({
      host: '127.0.0.1',
      port: 8790,
      apiKey: undefined,
      dpi: 200,
      maxPagePixels: 12_000_000,
      maxBodyBytes: 100 * 1024 * 1024,
      maxPages: 8,
      queueLength: 8,
      warmUp: true,
    });
  });

  it('reads the environment', () => {
    const settings = readSettings({
      HOST: '0.0.0.0',
      PORT: '0',
      OCR_API_KEY: 'k',
      OCR_DPI: '150',
      OCR_MAX_PAGE_PIXELS: '8_000_000',
      OCR_MAX_BODY_BYTES: '1048576',
      OCR_QUEUE_LENGTH: '0',
      OCR_WARM_UP: 'off',
    });
    expect(settings).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      apiKey: 'k',
      dpi: 150,
      maxPagePixels: 8_000_000,
      maxBodyBytes: 1_048_576,
      queueLength: 0,
      warmUp: false,
    });
  });

  it('refuses an invalid value, naming the variable', () => {
    expect(() => readSettings({ OCR_DPI: 'high' })).toThrow(/OCR_DPI must be a whole number/);
    expect(() => readSettings({ OCR_DPI: '5000' })).toThrow(/OCR_DPI .* from 36 to 600/);
    expect(() => readSettings({ PORT: '-1' })).toThrow(/PORT/);
    expect(() => readSettings({ OCR_MAX_LINES: '1.5' })).toThrow(/OCR_MAX_LINES/);
    expect(() => readSettings({ OCR_WARM_UP: 'maybe' })).toThrow(/OCR_WARM_UP/);
  });
});
