import path from 'node:path';
import { unstable_readConfig } from 'wrangler';
import { describe, expect, it } from 'vitest';
import { MODULE_WORKERS } from './stack/wrangler.ts';

// What a deploy publishes: only the gateway has a public address. The module workers are
// reached through its service bindings; a workers.dev host or a preview URL of their own would
// be a way around it (and around anything it adds at the front door).
const root = path.resolve(import.meta.dirname, '..');

describe('the deployed shape', () => {
  it.each<[string, string]>([
    ...MODULE_WORKERS.map((worker): [string, string] => [worker.name, worker.config]),
    ['ocr', 'workers/ocr/wrangler.toml'],
  ])('%s has no workers.dev host and no preview URLs', (_, config) => {
    const read = unstable_readConfig({ config: path.join(root, config) });
    expect(read.workers_dev).toBe(false);
    expect(read.preview_urls).toBe(false);
  });

  it('the document reader holds no binding, secret or route: bytes in, text out', () => {
    const reader = unstable_readConfig({
      config: path.join(root, 'workers/knowledge/reader/wrangler.toml'),
    });
    expect(reader.name).toBe('kbchat-reader');
    expect(reader.services ?? []).toEqual([]);
    expect(reader.r2_buckets ?? []).toEqual([]);
    expect(Object.keys(reader.vars ?? {})).toEqual([]);
    expect(reader.routes ?? []).toEqual([]);
  });

  it('the OCR worker has no route: knowledge reaches it through its OCR_SERVICE binding', () => {
    const ocr = unstable_readConfig({ config: path.join(root, 'workers/ocr/wrangler.toml') });
    expect(ocr.routes ?? []).toEqual([]);
    expect(ocr.containers?.map((c: { class_name: string }) => c.class_name)).toEqual([
      'OcrContainer',
    ]);
    const knowledge = unstable_readConfig({
      config: path.join(root, 'workers/knowledge/wrangler.toml'),
    });
    expect(knowledge.services).toContainEqual(
      expect.objectContaining({ binding: 'OCR_SERVICE', service: ocr.name }),
    );
  });
});
