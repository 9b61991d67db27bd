import { describe, expect, it } from 'vitest';
import { CHINESE_POLICY_PRINTED } from '../../../../dev/fixtures/printed-fixtures';
import {
  chunkDocument,
  locatedChunkPages,
  normaliseWhitespace,
  type LocatedChunk,
} from './chunker';

// Chunks that follow the document's structure (structure/document-structure.ts).

/** The policy's pages as its PDF reads (pdf-text-printed.test.ts). */
const POLICY = CHINESE_POLICY_PRINTED.expected.map((page) => page.replaceAll('\u3000', ''));

/** Article headings a chunk's text starts paragraphs with. */
const articlesIn = (content: string) =>
  content.match(/(?:^|\n)第[一二三四五六七八九十百]+条/gu)?.map((found) => found.trim()) ?? [];

/** The offsets invariant of chunker-offsets.test.ts. */
function expectPlaced(pages: readonly string[], chunks: readonly LocatedChunk[]) {
  for (const chunk of chunks) {
    const slice = pages[chunk.page - 1]!.slice(chunk.charStart, chunk.charEnd);
    expect(normaliseWhitespace(slice)).toBe(chunk.content);
  }
}

describe('a Chinese policy with chapters and articles', () => {
  const chunks = locatedChunkPages(POLICY);

  it('never puts two articles in one chunk, and gives each its path', () => {
    expectPlaced(POLICY, chunks);
    for (const chunk of chunks) expect(articlesIn(chunk.content).length).toBeLessThanOrEqual(1);
    const withArticle = chunks.filter((chunk) => articlesIn(chunk.content).length === 1);
    expect(withArticle).toHaveLength(22);
    for (const chunk of withArticle) {
      expect(chunk.headingPath).toMatch(/^第.章 .+ › 第.+条$/u);
      expect(chunk.headingPath!.endsWith(articlesIn(chunk.content)[0]!)).toBe(true);
    }
    expect(chunks.find((chunk) => chunk.content.startsWith('第十二条'))?.headingPath).toBe(
      '第四章 贴息和担保 › 第十二条',
    );
  });

  it('puts a chapter heading with its first article, not in a chunk of its own', () => {
    const chapter = chunks.find((chunk) => chunk.content.startsWith('第四章贴息和担保'))!;
    expect(chapter.content).toMatch(/^第四章贴息和担保\n\n第十一条对符合条件/u);
    expect(chapter.headingPath).toBe('第四章 贴息和担保 › 第十一条');
    // The title before the structure begins has none.
    expect(chunks[0]!.headingPath).toBeUndefined();
    // Only a chapter heading that ends its page stands alone (a chunk never spans pages).
    const alone = chunks.filter((chunk) => /^第.章[^\n]*$/u.test(chunk.content));
    expect(alone.map((chunk) => chunk.content)).toEqual(['第二章贷款对象和条件']);
    expect(POLICY[alone[0]!.page - 1]!.endsWith('第二章贷款对象和条件')).toBe(true);
  });

  it('chunks a range of pages from its state exactly as the whole document does', () => {
    const { chunks: whole, states } = chunkDocument(POLICY);
    const resumed = chunkDocument(POLICY.slice(2), { structure: states[2] }).chunks;
    const fromPage3 = whole.filter((chunk) => chunk.page >= 3);
    expect(resumed.map(({ content, headingPath }) => ({ content, headingPath }))).toEqual(
      fromPage3.map(({ content, headingPath }) => ({ content, headingPath })),
    );
  });
});

describe('articles and chunk sizes', () => {
  const long = `第三条\u3000${Array.from(
    { length: 30 },
    (_, i) => `申请人第${i + 1}次提交的材料应当真实完整。`,
  ).join('')}`;
  const pages = [
    `第一章\u3000总则\n\n第一条\u3000短条文。\n\n第二条\u3000也很短。\n\n${long}\n\n第四条\u3000最后一条。`,
  ];
  const chunks = locatedChunkPages(pages, { chunkSize: 120, overlap: 30 });

  it('keeps short articles apart, and splits a long one inside itself under its path', () => {
    expectPlaced(pages, chunks);
    expect(chunks.slice(0, 2).map((chunk) => chunk.content)).toEqual([
      '第一章 总则\n\n第一条 短条文。',
      '第二条 也很短。',
    ]);
    const inside = chunks.filter((chunk) => chunk.headingPath === '第一章 总则 › 第三条');
    expect(inside.length).toBeGreaterThan(3);
    for (const chunk of inside) {
      expect([...chunk.content].length).toBeLessThanOrEqual(120);
      expect(chunk.content).not.toContain('第四条');
      expect(chunk.content).not.toContain('第二条');
    }
    // Overlap stays inside the article: the next article starts a chunk of its own.
    expect(chunks.at(-1)).toMatchObject({
      content: '第四条 最后一条。',
      headingPath: '第一章 总则 › 第四条',
    });
  });
});

describe('an article over a page break', () => {
  const pages = [
    '第二章　补贴标准\n\n第五条　符合条件的申请人，每户每月补贴五百元，',
    '按季度发放。\n\n第六条　补贴资金由市财政承担。',
  ];
  const chunks = locatedChunkPages(pages);

  it('keeps pages apart and the article’s path on the next page', () => {
    expectPlaced(pages, chunks);
    expect(chunks.map(({ page, content, headingPath }) => [page, content, headingPath])).toEqual([
      [
        1,
        '第二章 补贴标准\n\n第五条 符合条件的申请人，每户每月补贴五百元，',
        '第二章 补贴标准 › 第五条',
      ],
      [2, '按季度发放。', '第二章 补贴标准 › 第五条'],
      [2, '第六条 补贴资金由市财政承担。', '第二章 补贴标准 › 第六条'],
    ]);
  });
});

describe('numbered sections and English policies', () => {
  it('cuts a notice at 一、（一）1.（1）', () => {
    const pages = [
      '各区人民政府：\n\n一、总体要求\n\n（一）指导思想。坚持以人民为中心。\n\n1.加强组织领导。各地要建立机制。\n\n（1）建立联席会议制度。\n\n二、主要任务\n\n（一）扩大就业。',
    ];
    const chunks = locatedChunkPages(pages);
    expectPlaced(pages, chunks);
    expect(chunks.map(({ content, headingPath }) => [content, headingPath ?? null])).toEqual([
      ['各区人民政府：', null],
      ['一、总体要求\n\n（一）指导思想。坚持以人民为中心。', '一、总体要求 › （一）指导思想'],
      ['1.加强组织领导。各地要建立机制。', '一、总体要求 › （一）指导思想 › 1.加强组织领导'],
      [
        '（1）建立联席会议制度。',
        '一、总体要求 › （一）指导思想 › 1.加强组织领导 › （1）建立联席会议制度',
      ],
      ['二、主要任务\n\n（一）扩大就业。', '二、主要任务 › （一）扩大就业'],
    ]);
  });

  it('cuts an English policy at 1. / 1.1', () => {
    const pages = [
      '1. Purpose\nThis policy sets out how leave is earned.\n\n1.1 Staff earn 25 days of leave per year.\n1.2 Part-time staff earn leave pro rata.\n\n2. Carry-over\nUp to five days carry over.',
    ];
    const chunks = locatedChunkPages(pages);
    expectPlaced(pages, chunks);
    expect(chunks.map(({ content, headingPath }) => [content, headingPath])).toEqual([
      ['1. Purpose\nThis policy sets out how leave is earned.', '1. Purpose'],
      ['1.1 Staff earn 25 days of leave per year.', '1. Purpose › 1.1'],
      ['1.2 Part-time staff earn leave pro rata.', '1. Purpose › 1.2'],
      ['2. Carry-over\nUp to five days carry over.', '2. Carry-over'],
    ]);
  });

  it('gives a labelled section its label, with the structure inside it', () => {
    const chunks = locatedChunkPages(
      ['Every employee receives 20 days.', '第一条　甲。\n\n第二条　乙。'],
      {
        labels: ['Annual leave policy › Entitlement', '办法'],
      },
    );
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([
      'Annual leave policy › Entitlement',
      '办法 › 第一条',
      '办法 › 第二条',
    ]);
  });
});

describe('a Markdown section with articles', () => {
  it('puts the section’s heading line with its first article', () => {
    const chunks = locatedChunkPages(['## 第一章 总则\n\n第一条 甲。\n\n第二条 乙。'], {
      labels: ['办法 › 第一章 总则'],
    });
    expect(chunks.map(({ content, headingPath }) => [content, headingPath])).toEqual([
      ['## 第一章 总则\n\n第一条 甲。', '办法 › 第一章 总则 › 第一条'],
      ['第二条 乙。', '办法 › 第一章 总则 › 第二条'],
    ]);
  });
});

describe('a document without structure', () => {
  it('has no heading paths, and chunks as the plain splitter does', () => {
    const text = Array.from(
      { length: 40 },
      (_, i) => `The council reviews appeal number ${i + 1} within ten days.`,
    ).join(' ');
    const chunks = locatedChunkPages([text, '申请住房补贴的家庭应当提交收入证明。'], {
      chunkSize: 200,
      overlap: 50,
    });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk).not.toHaveProperty('headingPath');
  });
});
