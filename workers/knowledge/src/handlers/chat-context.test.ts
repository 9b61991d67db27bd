import { describe, expect, it } from 'vitest';
import type { ChunkOnPage } from '../store/chat-context';
import { pagesWithin } from './chat-context';

const FILE = '3c40320a-0000-4000-8000-000000000001';
let nextId = 1;
const chunk = (page: number, similarity: number, pageText: string, content = `c${page}`) =>
  ({
    id: nextId++,
    similarity,
    content,
    file_id: FILE,
    file_name: 'a.pdf',
    page,
    section: null,
    text_source: 'text_layer',
    page_text: pageText,
    page_passages: [],
  }) satisfies ChunkOnPage;

describe('pagesWithin', () => {
  it('takes whole pages, best first, while they fit; a page is given once', () => {
    // Page 7 (20 characters) no longer fits the 10 left: its retrieved chunk (2) does.
    const pages = pagesWithin(
      [
        chunk(2, 0.9, 'b'.repeat(40)),
        chunk(5, 0.8, 'e'.repeat(50)),
        chunk(2, 0.7, 'b'.repeat(40)),
        chunk(7, 0.6, 'g'.repeat(20)),
      ],
      100,
    );
    expect(pages.map((p) => [p.page, p.text.length, p.similarity, p.excerpt])).toEqual([
      [2, 40, 0.9, false],
      [5, 50, 0.8, false],
      [7, 2, 0.6, true],
    ]);
  });

  it('a page too long for what is left: its retrieved chunks, each whole, marked excerpt', () => {
    const pages = pagesWithin(
      [chunk(1, 0.9, 'x'.repeat(500), 'first part'), chunk(1, 0.8, 'x'.repeat(500), 'second part')],
      100,
    );
    expect(pages).toEqual([
      expect.objectContaining({ page: 1, text: 'first part\n…\nsecond part', excerpt: true }),
    ]);
  });

  it('counts characters, not UTF-16 units, and never exceeds the budget', () => {
    const han = '𠀀'.repeat(10); // 10 characters, 20 UTF-16 units
    expect(pagesWithin([chunk(1, 0.9, han)], 10)).toHaveLength(1);
    expect(pagesWithin([chunk(1, 0.9, han, '𠀀'.repeat(11))], 9)).toEqual([]);
  });

  it('names each page’s most similar chunk, the passage a citation opens', () => {
    const best = chunk(3, 0.9, 'c'.repeat(30));
    const pages = pagesWithin([best, chunk(3, 0.5, 'c'.repeat(30)), chunk(4, 0.4, 'd')], 100);
    expect(pages.map((p) => [p.page, p.chunk_id])).toEqual([
      [3, best.id],
      [4, best.id + 2],
    ]);
  });

  it('tells each page’s passages where they stand in the text given: the page’s, or the excerpt’s', () => {
    const passages = [
      { chunk_id: 90, start: 0, end: 10 },
      { chunk_id: 91, start: 10, end: 20 },
    ];
    const whole = { ...chunk(1, 0.9, 'p'.repeat(20)), page_passages: passages };
    expect(pagesWithin([whole], 100)[0]).toMatchObject({ excerpt: false, passages });

    const first = { ...chunk(2, 0.9, 'x'.repeat(500), '第一段'), page_passages: passages };
    const second = { ...chunk(2, 0.8, 'x'.repeat(500), 'second part'), page_passages: passages };
    const [page] = pagesWithin([second, first].reverse(), 100);
    expect(page).toMatchObject({ excerpt: true, text: '第一段\n…\nsecond part' });
    expect(page!.passages!.map((p) => page!.text.slice(p.start, p.end))).toEqual([
      '第一段',
      'second part',
    ]);
    expect(page!.passages!.map((p) => p.chunk_id)).toEqual([first.id, second.id]);
  });
});
