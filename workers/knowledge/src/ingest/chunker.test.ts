import { describe, expect, it } from 'vitest';
import {
  type Chunk,
  chunkPages,
  DEFAULT_CHUNK_OVERLAP,
  DEFAULT_CHUNK_SIZE,
  normaliseWhitespace,
} from './chunker';

const codePoints = (text: string) => [...text].length;
const withoutWhitespace = (text: string) => text.replace(/\s+/g, '');

/** Length of the longest prefix of `next` that `previous` ends with. */
function sharedLength(previous: string, next: string): number {
  for (let length = Math.min(previous.length, next.length); length > 0; length--) {
    if (previous.endsWith(next.slice(0, length))) return length;
  }
  return 0;
}

/** The page's text rebuilt from its chunks, each overlap counted once. */
function stitch(chunks: Chunk[]): string {
  return chunks.reduce(
    (text, chunk) => text + chunk.content.slice(sharedLength(text, chunk.content)),
    '',
  );
}

/** Distinct English sentences of 40–70 characters, so every overlap is unambiguous. */
function englishSentences(count: number): string[] {
  const subjects = ['The council', 'A resident', 'The landlord', 'Each applicant', 'The clerk'];
  const verbs = ['reviews', 'submits', 'signs', 'records', 'approves'];
  const objects = ['the form', 'a refund request', 'the tenancy', 'the subsidy', 'an appeal'];
  return Array.from({ length: count }, (_, index) => {
    const subject = subjects[index % subjects.length];
    const verb = verbs[Math.floor(index / 5) % verbs.length];
    const object = objects[Math.floor(index / 25) % objects.length];
    return `${subject} ${verb} ${object} in case number ${index + 1}.`;
  });
}

/** Distinct Chinese sentences, each ending with a full-width sentence mark. */
function chineseSentences(count: number): string[] {
  const marks = ['。', '！', '？', '；'];
  const digits = '零一二三四五六七八九';
  return Array.from({ length: count }, (_, index) => {
    const number = String(index + 1)
      .split('')
      .map((digit) => digits[Number(digit)])
      .join('');
    return `第${number}条规定申请住房补贴的家庭应当提交收入证明${marks[index % marks.length]}`;
  });
}

describe('normaliseWhitespace', () => {
  it.each([
    ['  a \t  b  ', 'a b'],
    ['a\r\nb\rc', 'a\nb\nc'],
    ['a  \n  b', 'a\nb'],
    ['a\n\n\n\n\nb', 'a\n\nb'],
    ['a\n \n \nb', 'a\n\nb'],
    ['全角\u3000空格\u00a0和不换行空格', '全角 空格 和不换行空格'],
    ['\n\n  \t\n', ''],
  ])('%j → %j', (text, expected) => {
    expect(normaliseWhitespace(text)).toBe(expected);
  });
});

describe('chunkPages', () => {
  it('defaults to the original service’s 500 characters with 100 overlap', () => {
    expect(DEFAULT_CHUNK_SIZE).toBe(500);
    expect(DEFAULT_CHUNK_OVERLAP).toBe(100);
    const chunks = chunkPages([englishSentences(60).join(' ')]);

    expect(Math.max(...chunks.map((chunk) => codePoints(chunk.content)))).toBeLessThanOrEqual(500);
    expect(Math.max(...chunks.map((chunk) => codePoints(chunk.content)))).toBeGreaterThan(400);
  });

  it('keeps a short page as one normalised chunk', () => {
    expect(chunkPages(['  Refunds are paid\t\twithin 45 days.  '])).toEqual([
      { content: 'Refunds are paid within 45 days.', page: 1, index: 0 },
    ]);
  });

  it('drops empty pages but keeps the page numbers of the others', () => {
    const chunks = chunkPages(['', 'Page two.', ' \n\t ', 'Page four.']);

    expect(chunks).toEqual([
      { content: 'Page two.', page: 2, index: 0 },
      { content: 'Page four.', page: 4, index: 1 },
    ]);
  });

  it('returns nothing for no pages', () => {
    expect(chunkPages([])).toEqual([]);
  });

  it('never lets a chunk span two pages, and numbers chunks across the document', () => {
    const alpha = Array.from({ length: 120 }, (_, index) => `alpha${index}`).join(' ');
    const beta = Array.from({ length: 120 }, (_, index) => `beta${index}`).join(' ');
    const chunks = chunkPages([alpha, beta], { chunkSize: 200, overlap: 40 });

    expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, index) => index));
    for (const chunk of chunks) {
      const expectedWord = chunk.page === 1 ? 'alpha' : 'beta';
      const otherWord = chunk.page === 1 ? 'beta' : 'alpha';
      expect(chunk.content).toContain(expectedWord);
      expect(chunk.content).not.toContain(otherWord);
    }
    expect(
      chunks
        .filter((chunk) => chunk.page === 1)
        .at(-1)
        ?.content.endsWith('alpha119'),
    ).toBe(true);
    expect(chunks.find((chunk) => chunk.page === 2)?.content.startsWith('beta0 ')).toBe(true);
  });

  describe('English text', () => {
    const sentences = englishSentences(80);
    const text = sentences.join(' ');
    const chunks = chunkPages([text], { chunkSize: 300, overlap: 80 });

    it('keeps every chunk within the size and ends each at a sentence end', () => {
      expect(chunks.length).toBeGreaterThan(10);
      for (const chunk of chunks) {
        expect(codePoints(chunk.content)).toBeLessThanOrEqual(300);
        expect(chunk.content).toMatch(/^[A-Z].*\.$/s);
      }
    });

    it('overlaps consecutive chunks by whole sentences of at most the overlap', () => {
      for (let index = 1; index < chunks.length; index++) {
        const previous = chunks[index - 1]?.content ?? '';
        const next = chunks[index]?.content ?? '';
        const shared = sharedLength(previous, next);

        expect(shared).toBeGreaterThan(0);
        expect(shared).toBeLessThanOrEqual(80);
        expect(sentences).toContain(next.slice(0, shared).split(/(?<=\.) /)[0]);
      }
    });

    it('loses no text and repeats none beyond the overlaps', () => {
      expect(stitch(chunks)).toBe(text);
    });
  });

  it('prefers paragraph breaks, then line breaks, over sentence ends', () => {
    const paragraph = (name: string) => `${name} starts here. ${'It goes on. '.repeat(12).trim()}`;
    const text = [paragraph('One'), paragraph('Two'), paragraph('Three')].join('\n\n');
    const chunks = chunkPages([text], { chunkSize: 400, overlap: 60 });

    expect(chunks[0]?.content).toBe(`${paragraph('One')}\n\n${paragraph('Two')}`);
    expect(chunks[1]?.content.endsWith(paragraph('Three'))).toBe(true);

    const lines = chunkPages(['Line one is here.\nLine two is here.'], {
      chunkSize: 20,
      overlap: 0,
    });
    expect(lines.map((chunk) => chunk.content)).toEqual(['Line one is here.', 'Line two is here.']);
  });

  it('keeps "!", "?" and closing quotes with the sentence they end', () => {
    const text = 'Is it due? Yes! It is "paid." Then it closes.';
    const chunks = chunkPages([text], { chunkSize: 16, overlap: 0 });

    expect(chunks.map((chunk) => chunk.content)).toEqual([
      'Is it due? Yes!',
      'It is "paid."',
      'Then it closes.',
    ]);
  });

  describe('Chinese text', () => {
    const sentences = chineseSentences(40);
    const text = sentences.join('');
    const chunks = chunkPages([text], { chunkSize: 100, overlap: 30 });

    it('counts characters, not UTF-16 units, and splits after 。！？；', () => {
      expect(chunks.length).toBeGreaterThan(10);
      for (const chunk of chunks) {
        expect(codePoints(chunk.content)).toBeLessThanOrEqual(100);
        expect(chunk.content).toMatch(/^第.*[。！？；]$/su);
      }
      expect(codePoints(chunks[0]?.content ?? '')).toBeGreaterThan(70);
    });

    it('overlaps by whole sentences and loses nothing', () => {
      for (let index = 1; index < chunks.length; index++) {
        const shared = sharedLength(chunks[index - 1]?.content ?? '', chunks[index]?.content ?? '');
        expect(shared).toBeGreaterThan(0);
        expect(shared).toBeLessThanOrEqual(30);
      }
      expect(stitch(chunks)).toBe(text);
    });
  });

  describe('ends chunks at sentence and clause ends when one is within reach', () => {
    it('ends at a sentence end rather than after some words of a longer sentence', () => {
      const short = 'Refunds for parking permits are paid within forty-five days.';
      const long = `Late ${'applications and appeals '.repeat(8).trim()} are refused.`;
      const chunks = chunkPages([`${short} ${long}`], { chunkSize: 100, overlap: 0 });

      expect(chunks[0]?.content).toBe(short);
    });

    it('ends a long Chinese sentence after a comma, not between two characters of a word', () => {
      const clause = (index: number) =>
        `申请人第${'一二三四五六七八九'[index]}次提交创业担保贷款申请材料`;
      const sentence = `${Array.from({ length: 9 }, (_, index) => clause(index)).join('，')}。`;
      const chunks = chunkPages([sentence], { chunkSize: 60, overlap: 25 });

      expect(chunks.length).toBeGreaterThan(2);
      for (const chunk of chunks.slice(0, -1)) expect(chunk.content).toMatch(/，$/u);
      for (const chunk of chunks.slice(1)) expect(chunk.content).toMatch(/^申请人/u);
    });

    it('starts the overlap at a sentence start', () => {
      const sentences = Array.from(
        { length: 12 },
        (_, index) => `Sentence ${index + 1} names the subsidy and its ${index + 2} conditions.`,
      );
      const chunks = chunkPages([sentences.join(' ')], { chunkSize: 200, overlap: 90 });

      for (const chunk of chunks) expect(chunk.content).toMatch(/^Sentence \d+ .*\.$/u);
    });

    it('never ends inside a Latin word while a space is in reach', () => {
      const words = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
      const chunks = chunkPages([words], { chunkSize: 97, overlap: 20 });

      for (const chunk of chunks) expect(chunk.content).toMatch(/^word\d+( word\d+)*$/u);
    });
  });

  describe('a 10,000-character page without any separator', () => {
    // Varied letters, so that every overlap can be located exactly.
    const text = Array.from({ length: 10_000 }, (_, index) =>
      String.fromCharCode(97 + ((index * 7 + Math.floor(index / 26)) % 26)),
    ).join('');
    const chunks = chunkPages([text]);

    it('cuts between characters, 500 long, each starting 400 after the one before', () => {
      expect(chunks).toHaveLength(25);
      chunks.forEach((chunk, index) => {
        expect(chunk.content).toBe(text.slice(index * 400, index * 400 + 500));
      });
    });
  });

  it('counts an emoji as one character and never splits one', () => {
    // Not periodic, so that each overlap can be located exactly.
    const text = Array.from({ length: 1200 }, (_, index) =>
      String.fromCodePoint(0x1f600 + ((index * 13 + Math.floor(index / 80)) % 80)),
    ).join('');
    const chunks = chunkPages([text], { chunkSize: 500, overlap: 100 });

    expect(codePoints(chunks[0]?.content ?? '')).toBe(500);
    expect(chunks[0]?.content.length).toBe(1000);
    for (const chunk of chunks) expect(chunk.content).not.toMatch(/\p{Cs}/u);
    expect(stitch(chunks)).toBe(text);
  });

  it.each([1, 10, 500])('splits text of exactly the chunk size (%i) or one more', (size) => {
    const exact = 'x'.repeat(size);
    expect(chunkPages([exact], { chunkSize: size, overlap: 0 })).toEqual([
      { content: exact, page: 1, index: 0 },
    ]);

    const oneMore = `${'y'.repeat(size)}z`;
    expect(
      chunkPages([oneMore], { chunkSize: size, overlap: 0 }).map((chunk) => chunk.content),
    ).toEqual(['y'.repeat(size), 'z']);
  });

  it('repeats nothing with overlap 0', () => {
    const text = englishSentences(30).join(' ');
    const chunks = chunkPages([text], { chunkSize: 120, overlap: 0 });

    expect(withoutWhitespace(chunks.map((chunk) => chunk.content).join(''))).toBe(
      withoutWhitespace(text),
    );
  });

  it('produces no empty or whitespace-only chunks', () => {
    const text = 'A.\n\n\n\n   \n\nB.   \n\n \t \n\nC.';
    const chunks = chunkPages([text, '\n\n', text], { chunkSize: 3, overlap: 1 });

    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) {
      expect(chunk.content.trim()).toBe(chunk.content);
      expect(chunk.content).not.toBe('');
    }
  });

  it('is deterministic', () => {
    const pages = [englishSentences(50).join(' '), chineseSentences(30).join('')];

    expect(chunkPages(pages, { chunkSize: 150, overlap: 40 })).toEqual(
      chunkPages(pages, { chunkSize: 150, overlap: 40 }),
    );
  });

  it.each([
    [{ chunkSize: 0 }, /chunkSize/],
    [{ chunkSize: -5 }, /chunkSize/],
    [{ chunkSize: 2.5 }, /chunkSize/],
    [{ chunkSize: 100, overlap: 100 }, /overlap/],
    [{ chunkSize: 100, overlap: 150 }, /overlap/],
    [{ chunkSize: 100, overlap: -1 }, /overlap/],
    [{ overlap: 1.5 }, /overlap/],
  ])('refuses %j', (options, message) => {
    expect(() => chunkPages(['text'], options)).toThrow(RangeError);
    expect(() => chunkPages(['text'], options)).toThrow(message);
  });
});

describe('chunkPages: Markdown tables', () => {
  const HEAD = '| 序号 | 项目 | 补贴标准 |\n| --- | --- | --- |';
  const rows = Array.from(
    { length: 30 },
    (_, i) => `| ${i + 1} | 第${i + 1}类创业项目 | 每户每月补贴${(i + 1) * 100}元，按季度发放。 |`,
  );
  const before = chineseSentences(6).join('');
  const after = chineseSentences(4).join('');
  const page = `${before}\n\n${HEAD}\n${rows.join('\n')}\n\n${after}`;

  /** The lines of a chunk that are table lines: its header, delimiter and whole rows only. */
  const tableLines = (content: string) =>
    content.split('\n').filter((line) => line.startsWith('|'));

  it('cuts a table between rows only, and starts a chunk inside it with its header', () => {
    const chunks = chunkPages([page], { chunkSize: 200, overlap: 60 });
    const seen = new Set<string>();
    for (const { content } of chunks) {
      expect(codePoints(content)).toBeLessThanOrEqual(200);
      const lines = tableLines(content);
      for (const line of lines) {
        expect([...HEAD.split('\n'), ...rows]).toContain(line);
        seen.add(line);
      }
      // Any chunk with rows holds the header right above its first row.
      if (lines.some((line) => rows.includes(line))) {
        expect(lines.slice(0, 2).join('\n')).toBe(HEAD);
      }
    }
    expect(rows.every((row) => seen.has(row))).toBe(true);
    // The chunks inside the table begin with its header; a row overlaps into the next chunk.
    const inside = chunks.filter((chunk) => chunk.content.startsWith(HEAD));
    expect(inside.length).toBeGreaterThan(3);
    expect(stitch(chunks.filter((c) => !c.content.startsWith(HEAD)))).toContain(before);
  });

  it('cuts a row longer than a chunk inside, and the chunk that goes on still has the header', () => {
    const long = `| 31 | 长项目 | ${'说明文字很长，'.repeat(40)} |`;
    const chunks = chunkPages([`${HEAD}\n${rows[0]}\n${long}\n${rows[1]}`], {
      chunkSize: 150,
      overlap: 30,
    });
    expect(chunks.every((chunk) => codePoints(chunk.content) <= 150)).toBe(true);
    expect(chunks.every((chunk) => chunk.content.startsWith(HEAD))).toBe(true);
    const text = chunks.map((chunk) => chunk.content.slice(HEAD.length)).join('');
    expect(withoutWhitespace(text)).toContain(withoutWhitespace(long.slice(0, 60)));
    expect(chunks.at(-1)?.content.endsWith(rows[1]!)).toBe(true);
  });

  it('does not repeat a header longer than half a chunk, and reads GFM tables without outer pipes', () => {
    const wide = `${Array.from({ length: 30 }, (_, i) => `列${i}`).join(' | ')}\n${'--- | '.repeat(29)}---`;
    const body = Array.from({ length: 10 }, (_, i) => `${i} | ${'x | '.repeat(28)}y`).join('\n');
    const chunks = chunkPages([`${wide}\n${body}`], { chunkSize: 200, overlap: 0 });
    expect(chunks.every((chunk) => codePoints(chunk.content) <= 200)).toBe(true);
    expect(chunks.filter((chunk) => chunk.content.startsWith('列0'))).toHaveLength(1);
    // Rows are still never cut: every chunk is whole lines of the table.
    const lines = `${wide}\n${body}`.split('\n');
    for (const chunk of chunks) {
      for (const line of chunk.content.split('\n')) expect(lines).toContain(line);
    }
  });

  it('chunks a page whose pipes make no table exactly as any other text', () => {
    // A delimiter row of fewer cells than the line above it: no table, as GFM reads it.
    const text = `${englishSentences(8).join(' | ')}\n--- | ---\n${englishSentences(8).join(' ')}`;
    const options = { chunkSize: 120, overlap: 30 };
    const piped = chunkPages([text], options).map((c) => c.content.replaceAll('|', '/'));
    expect(piped).toEqual(chunkPages([text.replaceAll('|', '/')], options).map((c) => c.content));
  });
});
