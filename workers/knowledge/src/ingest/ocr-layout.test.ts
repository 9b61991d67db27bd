import { describe, expect, it } from 'vitest';
import { documentNumbers, ocrPageLayout, type OcrLine } from './ocr-layout';
import { pageTexts } from './page-text';

// An A4 page at 16 pt, as the OCR service reports its lines: boxes in page points, y down.
const line = (text: string, top: number, left = 72, right = 523): OcrLine => ({
  text,
  confidence: 0.98,
  box: [left, top, right, top + 20],
});

const page = (lines: OcrLine[]) => ({
  page: 2,
  width: 595,
  height: 842,
  dpi: 200,
  lines,
  confidence: 0.97,
});

describe('an OCR page as a layout', () => {
  it('joins a paragraph’s lines and keeps paragraphs apart, as for a text layer', () => {
    const layout = ocrPageLayout(
      page([
        line('第一条　为深入实施就业优先战略，落实稳就业各项政策措施，更好发挥创业', 100, 104),
        line('担保贷款促进创业带动就业的作用，制定本办法。', 128, 72, 400),
        line('第二条　本办法所称创业担保贷款，是指以具备规定条件的创业者个人为借款人', 170, 104),
        line('的贷款。', 198, 72, 136),
      ]),
    );
    expect(layout.page).toBe(2);
    expect(layout.source).toEqual({ kind: 'ocr', confidence: 0.97 });
    const [text] = pageTexts([layout]);
    // The space after an article's number goes, as it does from a text layer (cjk-spacing.ts).
    expect(text).toBe(
      '第一条为深入实施就业优先战略，落实稳就业各项政策措施，更好发挥创业担保贷款促进创业带动就业的作用，制定本办法。\n\n' +
        '第二条本办法所称创业担保贷款，是指以具备规定条件的创业者个人为借款人的贷款。',
    );
  });

  it('drops empty lines and degenerate boxes, and reads a page without lines as empty', () => {
    const layout = ocrPageLayout(
      page([line('  ', 100), { text: '无', confidence: 0.5, box: [80, 300, 80, 320] }]),
    );
    expect(pageTexts([layout])).toEqual(['']);
    expect(ocrPageLayout(page([])).blocks).toEqual([]);
  });
});

describe('document numbers read by OCR', () => {
  it('get their hexagonal brackets back, whatever brackets OCR read', () => {
    expect(documentNumbers('青政办发[2024]17号')).toBe('青政办发〔2024〕17号');
    expect(documentNumbers('川办规［2025]6号')).toBe('川办规〔2025〕6号');
    expect(documentNumbers('国发【2023】 5 号文件')).toBe('国发〔2023〕5 号文件');
    expect(documentNumbers('川办规〔2025〕6号')).toBe('川办规〔2025〕6号');
  });

  it('leave other brackets alone', () => {
    expect(documentNumbers('见附件[2024]')).toBe('见附件[2024]');
    expect(documentNumbers('Section [2024] 17号')).toBe('Section [2024] 17号');
    expect(documentNumbers('第[12]条')).toBe('第[12]条');
  });
});
