import { describe, expect, it } from 'vitest';
import { CHINESE_POLICY_PRINTED } from '../../../../../dev/fixtures/printed-fixtures';
import {
  initialStructure,
  numberOf,
  pathAt,
  readPageStructure,
  readStructure,
  type PageStructure,
} from './document-structure';

const labels = (pages: readonly PageStructure[]) =>
  pages.flatMap((page) => page.headings.map((heading) => heading.label));
const paths = (pages: readonly PageStructure[]) =>
  pages.flatMap((page) => page.headings.map((heading) => heading.path));

// The printed policy's pages as its PDF reads (pdf-text-printed.test.ts): paragraphs apart, and
// the ideographic space after 第一条 lost.
const POLICY = CHINESE_POLICY_PRINTED.expected.map((page) => page.replaceAll('\u3000', ''));

describe('a Chinese policy with chapters and articles', () => {
  const pages = readStructure(POLICY);

  it('finds every chapter and article, in order, across its pages', () => {
    const found = labels(pages);
    expect(found.filter((label) => label.endsWith('条'))).toHaveLength(22);
    expect(found.filter((label) => /^第.章 /u.test(label))).toEqual([
      '第一章 总则',
      '第二章 贷款对象和条件',
      '第三章 贷款额度、期限和利率',
      '第四章 贴息和担保',
      '第五章 申请和审核',
      '第六章 监督管理',
      '第七章 附则',
    ]);
    expect(paths(pages)).toContain('第四章 贴息和担保 › 第十二条');
    // The attachment is above both hierarchies: its items are its own.
    expect(paths(pages).slice(-5)).toEqual([
      '第七章 附则 › 第二十二条',
      '附件 创业担保贷款申请材料清单',
      '附件 创业担保贷款申请材料清单 › 一、个人申请',
      '附件 创业担保贷款申请材料清单 › 二、小微企业申请',
      '附件 创业担保贷款申请材料清单 › 三、贴息申请',
    ]);
  });

  it('gives an article its number alone as its heading: the rest of the line is its text', () => {
    const page = pages.find((p) => p.headings.some((h) => h.label === '第十二条'))!;
    const text = POLICY[pages.indexOf(page)]!;
    const article = page.headings.find((h) => h.label === '第十二条')!;
    expect(text.slice(article.start, article.end)).toBe('第十二条');
    expect(article.titleOnly).toBe(false);
    expect(pathAt(page, article.end + 10)).toBe('第四章 贴息和担保 › 第十二条');
    expect(pathAt(page, article.start - 1)).not.toBe('第四章 贴息和担保 › 第十二条');
  });

  it('carries the structure across a page break', () => {
    // Page 2 begins with 第四条, under the chapter that page 1 ends with.
    expect(pages[1]!.startPath).toBe('第二章 贷款对象和条件');
    expect(pages[1]!.headings[0]!.path).toBe('第二章 贷款对象和条件 › 第四条');
    // An article that goes on over the page break: the next page starts inside it.
    const [before, after] = readStructure(['第二章　补贴\n\n第五条　申请人应当', '提交材料。']);
    expect(after!.startPath).toBe('第二章 补贴 › 第五条');
    expect(pathAt(after!, 0)).toBe('第二章 补贴 › 第五条');
    expect(before!.state.ended).toBe(false);
  });

  it('resumes from a page’s state as if read from the start', () => {
    const resumed = readStructure(POLICY.slice(2), { state: pages[1]!.state });
    expect(resumed).toEqual(pages.slice(2));
  });
});

describe('what is not a heading', () => {
  const headingsOf = (text: string) => labels([readPageStructure(text, initialStructure())]);

  it('a reference inside a sentence, or at the start of a wrapped line', () => {
    expect(headingsOf('第一条　总则。依照本办法第十二条规定办理。')).toEqual(['第一条']);
    expect(headingsOf('第一条　申请人依照本办法\n第十二条规定办理。')).toEqual(['第一条']);
  });

  it('an article number that does not follow the one before', () => {
    expect(headingsOf('第一条　甲。\n第二条　乙。\n第二条　丙。\n第九十条　丁。')).toEqual([
      '第一条',
      '第二条',
    ]);
  });

  it('a chapter "title" that is a sentence', () => {
    expect(headingsOf('第二章规定的补贴，按季度发放。')).toEqual([]);
  });

  it('numbered items inside an article: they are its enumeration', () => {
    expect(headingsOf('第一条　申请人应当提交：\n（一）身份证明；\n（二）营业执照。')).toEqual([
      '第一条',
    ]);
  });

  it('a numbered item without its first one, or an English list of steps', () => {
    expect(headingsOf('三、主要任务\n\n四、保障措施')).toEqual([]);
    expect(headingsOf('To apply:\n1. fill in the form;\n2. sign it.')).toEqual([]);
    expect(headingsOf('Section 3 of the Act applies.\n3.5 million people live here.')).toEqual([]);
  });

  it('anything in a document without structure', () => {
    const pages = readStructure([
      'Refunds are paid within 45 days.\n\nThe council reviews appeals.',
      '申请住房补贴的家庭应当提交收入证明。',
    ]);
    expect(labels(pages)).toEqual([]);
    expect(pages.map((page) => [page.startPath, pathAt(page, 10)])).toEqual([
      [null, null],
      [null, null],
    ]);
  });
});

describe('numbered sections', () => {
  it('nests 一、 > （一） > 1. > （1）, each level starting again under its parent', () => {
    const [page] = readStructure([
      [
        '各区人民政府：',
        '一、总体要求',
        '（一）指导思想。坚持以人民为中心。',
        '1.加强组织领导。各地要建立工作机制。',
        '（1）建立联席会议制度。',
        '（2）明确责任分工',
        '2.强化资金保障',
        '（二）基本原则',
        '1.统筹兼顾',
        '二、主要任务',
        '（一）扩大就业',
      ].join('\n'),
    ]);
    expect(page!.headings.map((heading) => heading.path)).toEqual([
      '一、总体要求',
      '一、总体要求 › （一）指导思想',
      '一、总体要求 › （一）指导思想 › 1.加强组织领导',
      '一、总体要求 › （一）指导思想 › 1.加强组织领导 › （1）建立联席会议制度',
      '一、总体要求 › （一）指导思想 › 1.加强组织领导 › （2）明确责任分工',
      '一、总体要求 › （一）指导思想 › 2.强化资金保障',
      '一、总体要求 › （二）基本原则',
      '一、总体要求 › （二）基本原则 › 1.统筹兼顾',
      '二、主要任务',
      '二、主要任务 › （一）扩大就业',
    ]);
  });

  it('reads an English policy’s 1. / 1.1 sections and Section N headings', () => {
    const [page] = readStructure([
      [
        'Annual leave policy',
        '',
        '1. Purpose',
        'This policy sets out how leave is earned.',
        '',
        '1.1 Staff earn 25 days of leave per year.',
        '1.2 Part-time staff',
        'Leave is pro rata.',
        '',
        '2. Carry-over',
        '2.1 Up to five days carry over.',
        '',
        'Section 3 Appeals',
        'Appeals go to the head of department.',
      ].join('\n'),
    ]);
    expect(page!.headings.map((heading) => heading.path)).toEqual([
      '1. Purpose',
      '1. Purpose › 1.1',
      '1. Purpose › 1.2 Part-time staff',
      '2. Carry-over',
      '2. Carry-over › 2.1',
      'Section 3 Appeals',
    ]);
  });
});

describe('pages with labels (sections of documents with headings)', () => {
  it('starts each labelled section afresh, under its label, and goes on in its next part', () => {
    // A Markdown file's text before its first heading has no label (section-writer.ts).
    const pages = readStructure(
      ['第一条　甲。', '第二条　乙。\n\n第三条　丙。', 'Carried over.', '1. Purpose\n\nText.'],
      { labels: [null, '办法 › 附则', '办法 › 附则', 'Policy'] },
    );
    expect(pages.map((page) => page.startPath)).toEqual([
      null,
      '办法 › 附则',
      // The same section's next part goes on inside its article.
      '办法 › 附则 › 第三条',
      'Policy',
    ]);
    expect(paths(pages)).toEqual([
      '第一条',
      '办法 › 附则 › 第二条',
      '办法 › 附则 › 第三条',
      'Policy › 1. Purpose',
    ]);
  });
});

describe('a section whose heading is also a chapter or article', () => {
  it('has it once in its paths: the label names it, its text does not add it again', () => {
    // A DOCX heading "第三章 附则" (an ideographic space) labels its section, whose text starts with it.
    const pages = readStructure(['第三章 附则\n\n第四条　本办法自印发之日起施行。'], {
      labels: ['办法 › 第三章　附则'],
    });
    expect(paths(pages)).toEqual(['办法 › 第三章　附则', '办法 › 第三章　附则 › 第四条']);
  });
});

describe('numberOf', () => {
  it.each([
    ['一', 1],
    ['十', 10],
    ['十二', 12],
    ['二十', 20],
    ['二十二', 22],
    ['一百零五', 105],
    ['两百', 200],
    ['12', 12],
    ['１５', 15],
    ['甲', undefined],
  ])('%s → %s', (text, number) => {
    expect(numberOf(text)).toBe(number);
  });
});
