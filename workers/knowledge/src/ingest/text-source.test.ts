import { describe, expect, it } from 'vitest';
import { makePrintedPdf } from '../../../../dev/fixtures/pdf-builder';
import { CHINESE_POLICY_PRINTED } from '../../../../dev/fixtures/printed-fixtures';
import { extractPdfLayout } from './pdf-text';
import { pageTexts } from './page-text';
import { gb2312Fault, judgePage, repairFaults } from './text-source';

// The way a real Sichuan provincial PDF's text layer reads: GB2312 codes as code points.
const FAULTY = [
  '各市（州）人民政府ꎬ省政府各部门ꎬ各直属机构ꎺ',
  '现将«若干政策措施»印发给你们ꎬ请认真贯彻执行ꎮ',
  '川办规〔ꎲꎰꎲꎵ〕ꎶ号',
];

describe('the GB2312 font-map fault', () => {
  it('maps rows 1 and 3 back to the characters they stand for', () => {
    expect(gb2312Fault(0xa3ac)).toBe('，');
    expect(gb2312Fault(0xa3ae)).toBe('。');
    expect(gb2312Fault(0xa1a2)).toBe('、');
    expect(gb2312Fault(0xa1b6)).toBe('《');
    expect(gb2312Fault(0xa3ba)).toBe('：');
    expect(gb2312Fault(0xa3b0)).toBe('０');
    expect(gb2312Fault(0xa3c1)).toBe('Ａ');
    expect(gb2312Fault(0xa3a4)).toBe('￥');
    // Yi syllables outside the two rows are Yi.
    expect(gb2312Fault(0xa000)).toBeUndefined();
    expect(gb2312Fault(0xa2b1)).toBeUndefined();
  });

  it('repairs a page of Han text and counts the repairs', () => {
    const verdict = judgePage(FAULTY);
    expect(verdict.source).toEqual({ kind: 'repaired', repairs: 10 });
    const text = FAULTY.map(verdict.repair).join('\n');
    expect(text).toContain('各市（州）人民政府，省政府各部门，各直属机构：');
    expect(text).toContain('印发给你们，请认真贯彻执行。');
    expect(text).toContain('川办规〔２０２５〕６号');
    expect(text).not.toMatch(/\p{Script=Yi}/u);
  });

  it('leaves Yi text alone where Yi outnumbers Han', () => {
    const yi = 'ꆈꌠꁱꂷ ꎬꎮ ꀉꂿꋍꂷ ꌠꅉꐚ ꊿꇬꉣ';
    const verdict = judgePage([yi]);
    expect(verdict.source.kind).toBe('text_layer');
    expect(verdict.repair(yi)).toBe(yi);
    expect(repairFaults('ꎬ')).toBe('，');
  });
});

describe('judging a page', () => {
  it('takes a clean page as it is', () => {
    const verdict = judgePage([
      '第一条　为深入实施就业优先战略，制定本办法。',
      'Article 1 applies.',
    ]);
    expect(verdict.source).toEqual({ kind: 'text_layer' });
  });

  it('sends a page without text to OCR', () => {
    expect(judgePage([]).source).toEqual({ kind: 'text_layer', needsOcr: 'no_text' });
    expect(judgePage(['— 3 —']).source).toEqual({ kind: 'text_layer', needsOcr: 'no_text' });
  });

  it('sends a page of private-use code points to OCR', () => {
    const junk = String.fromCodePoint(...Array.from({ length: 40 }, (_, i) => 0xe000 + i));
    expect(judgePage([junk, '第一条']).source).toEqual({ kind: 'text_layer', needsOcr: 'garbled' });
  });

  it('sends replacement characters and controls to OCR', () => {
    const page = '\ufffd\ufffd\u0001\u0002 关于 \ufffd\ufffd\ufffd\u0003\u0004\ufffd\ufffd';
    expect(judgePage([page]).source).toMatchObject({ needsOcr: 'garbled' });
  });

  it('sends single-byte mojibake of a CJK font to OCR', () => {
    // 关于印发实施办法的通知, its GBK bytes read as Windows-1252.
    const page = '¹ØÓÚÓ¡·¢ÊµÊ©°ì·¨µÄÍ¨Öª ¹ØÓÚÓ¡·¢ÊµÊ©°ì·¨µÄÍ¨Öª';
    expect(judgePage([page]).source).toMatchObject({ needsOcr: 'garbled' });
  });

  it('keeps French and German text, accents and all', () => {
    const page = 'Le délégué général présente les données économiques. Größere Änderungen folgen.';
    expect(judgePage([page]).source).toEqual({ kind: 'text_layer' });
  });
});

describe('a born-digital PDF whose font maps its punctuation and digits to GB2312 codes', () => {
  const fixture = CHINESE_POLICY_PRINTED;
  const read = async (fault?: 'gbk-codes') => {
    const bytes = makePrintedPdf(fixture.pages, { ...fixture.options, toUnicodeFault: fault });
    const { pages } = await extractPdfLayout(bytes, { maxPages: 50 });
    return { pages, texts: pageTexts(pages) };
  };

  it('reads back as the same PDF without the fault, with no Yi or private-use character', async () => {
    const faulty = await read('gbk-codes');
    const sound = await read();
    expect(faulty.texts).toEqual(sound.texts);
    expect(faulty.texts.join('')).toContain('结合本市实际，制定本办法。');
    expect(faulty.texts.join('')).not.toMatch(/[\p{Script=Yi}\p{Co}]/u);
    for (const page of sound.pages) expect(page.source).toEqual({ kind: 'text_layer' });
    for (const page of faulty.pages) expect(page.source).toMatchObject({ kind: 'repaired' });
    const repairs = faulty.pages.reduce(
      (sum, page) => sum + (page.source?.kind === 'repaired' ? page.source.repairs : 0),
      0,
    );
    // Every ，。、：； and full-width digit printed was one (page furniture included).
    expect(repairs).toBeGreaterThan(0);
    expect(repairs).toBe(
      fixture.expected.join('').match(/[，。、：；０-９]/gu)?.length ?? Number.NaN,
    );
  });
});
