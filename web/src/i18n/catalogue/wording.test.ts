import { afterAll, describe, expect, it } from 'vitest';
import { currentLocale, setLocale } from '../locale';
import { messages } from '../messages';

/**
 * Every Chinese text of the catalogue, as far as it can be had without knowing each function's
 * arguments: strings as they are, functions called with a few probes (a value that reads as a
 * number and as a string, 0, 2); a probe a function cannot take is skipped.
 */
function texts(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'function') {
    for (const probe of [new String('1'), 0, 2]) {
      try {
        texts((value as (...args: unknown[]) => unknown)(...Array(6).fill(probe)), out);
      } catch {
        // Not a probe this function takes.
      }
    }
  } else if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) texts(inner, out);
  }
  return out;
}

describe('the Chinese wording', () => {
  const before = currentLocale();
  setLocale('zh');
  const all = texts(messages());
  afterAll(() => setLocale(before));

  it('is read from the whole catalogue', () => {
    expect(all.length).toBeGreaterThan(900);
  });

  // A government office's register addresses its reader as 您; a chunk of a document is a
  // 片段 wherever it is found, cited, corrected or switched off.
  it.each(['你', '文本块', '分块', '段落'])('never says %s', (word) => {
    expect(all.filter((text) => text.includes(word))).toEqual([]);
  });

  it('names a collection 资料集, not 知识库, in the audit trail', () => {
    const actions = Object.entries(messages().audit.actions).filter(([key]) =>
      key.startsWith('knowledge.collection_'),
    );
    expect(actions.map(([, label]) => label)).toEqual([
      '创建资料集',
      '修改资料集名称或说明',
      '删除资料集',
    ]);
  });
});
