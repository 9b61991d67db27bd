import { describe, expect, it } from 'vitest';
import type { ServedResult } from './knowledge-api.ts';
import { judgeModeSupport, type ModeProbe } from './mode-support.ts';

const result = (id: number, extra: Partial<ServedResult> = {}): ServedResult => ({
  id,
  similarity: 0.6,
  content: '',
  file_id: 'f',
  file_name: 'a.pdf',
  page: 1,
  ...extra,
});
const list = (...ids: number[]) => ids.map((id) => result(id));

describe('judgeModeSupport', () => {
  it('takes a mode as ignored when every probe equals vector mode and nothing says found_by', () => {
    const probes: ModeProbe[] = [
      { vector: list(1, 2, 3), asked: list(1, 2, 3) },
      { vector: list(4, 5), asked: list(4, 5) },
    ];
    for (const mode of ['hybrid', 'keyword'] as const) {
      const support = judgeModeSupport(mode, probes);
      expect(support.honoured).toBe(false);
      expect(support.reason).toMatch(/^not supported by this server/);
    }
    expect(judgeModeSupport('vector', probes).honoured).toBe(true);
  });

  it('takes a mode as honoured when any probe differs from vector mode', () => {
    const probes: ModeProbe[] = [
      { vector: list(1, 2, 3), asked: list(1, 2, 3) },
      { vector: list(4, 5), asked: list(5, 4) },
    ];
    expect(judgeModeSupport('keyword', probes).honoured).toBe(true);
  });

  it('trusts found_by when the results carry it', () => {
    const hybrid = [
      result(1, { found_by: ['vector', 'keyword'], ranks: { vector: 1, keyword: 3 } }),
      result(7, { found_by: ['keyword'], ranks: { keyword: 1 } }),
    ];
    const probes: ModeProbe[] = [{ vector: list(1, 2), asked: hybrid }];
    expect(judgeModeSupport('hybrid', probes).honoured).toBe(true);
    // The same answer to mode=keyword or mode=vector means the server ignored the mode.
    expect(judgeModeSupport('keyword', probes).honoured).toBe(false);
    expect(judgeModeSupport('vector', probes).honoured).toBe(false);
    // Identical ids but labelled as keyword-only results: honoured.
    const keyword = [result(1, { found_by: ['keyword'] }), result(2, { found_by: ['keyword'] })];
    expect(judgeModeSupport('keyword', [{ vector: list(1, 2), asked: keyword }]).honoured).toBe(
      true,
    );
  });
});
