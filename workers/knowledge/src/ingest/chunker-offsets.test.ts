import { describe, expect, it } from 'vitest';
import { chunkPages, locatedChunkPages, normaliseWhitespace, type ChunkOptions } from './chunker';

// Every chunk's [charStart, charEnd) in its page's text as stored: the slice there, normalised,
// is the chunk's text, less the table header a chunk inside a table repeats.

const sentences = (count: number, make: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => make(i));

const english = sentences(40, (i) => `Clause ${i + 1} says the applicant signs form ${i}.`);
const chinese = sentences(40, (i) => `第${i + 1}条申请住房补贴的家庭应当提交收入证明。`);
const table = [
  '| 序号 | 项目 | 补贴标准 |',
  '| --- | --- | --- |',
  ...sentences(30, (i) => `| ${i + 1} | 一次性创业补贴第${i}项 | 每户${5000 + i}元 |`),
].join('\n');

const PAGES: Record<string, string> = {
  'English paragraphs with odd whitespace': `  ${english.slice(0, 12).join('  \t')}\r\n\r\n\r\n\r\n${english.slice(12).join(' \n ')}  `,
  'Chinese with full-width spaces and emoji': chinese
    .map((s, i) => (i % 5 === 0 ? `${s}😀\u3000` : s))
    .join('\n'),
  'a table between paragraphs': `${english.slice(0, 5).join(' ')}\n\n${table}\n\n${chinese.slice(0, 6).join('')}`,
  'blank page': ' \n\t ',
};

function expectLocated(pages: string[], options: ChunkOptions) {
  const located = locatedChunkPages(pages, options);
  expect(located.map(({ content, page, index }) => ({ content, page, index }))).toEqual(
    chunkPages(pages, options),
  );
  for (const chunk of located) {
    const pageText = pages[chunk.page - 1]!;
    expect(chunk.charStart).toBeGreaterThanOrEqual(0);
    expect(chunk.charEnd).toBeLessThanOrEqual(pageText.length);
    const slice = normaliseWhitespace(pageText.slice(chunk.charStart, chunk.charEnd));
    if (chunk.content === slice) continue;
    // A repeated table header: two lines (the header and delimiter rows), then the slice.
    const [header, delimiter, ...rest] = chunk.content.split('\n');
    expect(delimiter, chunk.content).toMatch(/^\|( --- \|)+$/);
    expect(pageText).toContain(`${header}\n${delimiter}`);
    expect(rest.join('\n')).toBe(slice);
  }
  return located;
}

describe('locatedChunkPages', () => {
  for (const options of [{}, { chunkSize: 120, overlap: 30 }, { chunkSize: 60, overlap: 0 }]) {
    it(`places every chunk in its page's text (${JSON.stringify(options)})`, () => {
      const located = expectLocated(Object.values(PAGES), options);
      expect(located.length).toBeGreaterThan(4);
      // Chunks on a page go forwards.
      for (let i = 1; i < located.length; i++) {
        const [a, b] = [located[i - 1]!, located[i]!];
        if (a.page === b.page) expect(b.charStart).toBeGreaterThan(a.charStart);
      }
    });
  }

  it('repeats a table header that is not part of the chunk’s place', () => {
    const located = expectLocated([table], { chunkSize: 200, overlap: 0 });
    const repeated = located.filter((chunk) => chunk.index > 0);
    expect(repeated.length).toBeGreaterThan(0);
    for (const chunk of repeated) {
      expect(chunk.content.startsWith('| 序号 |')).toBe(true);
      expect(table.slice(chunk.charStart, chunk.charEnd).startsWith('| 序号 |')).toBe(false);
    }
  });

  it('gives a page that needed no normalising its offsets as they are', () => {
    const text = english.slice(0, 3).join(' ');
    expect(locatedChunkPages([text])).toEqual([
      { content: text, page: 1, index: 0, charStart: 0, charEnd: text.length },
    ]);
  });
});
