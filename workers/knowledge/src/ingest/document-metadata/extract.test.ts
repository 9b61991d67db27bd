import { describe, expect, it } from 'vitest';
import {
  CHINESE_POLICY_FIXTURE,
  ENGLISH_POLICY_FIXTURE,
} from '../../../../../dev/fixtures/pdf-builder';
import {
  POLICY_DOCUMENTS,
  QINGHE_NOTICE_2024,
  type ExpectedMetadata,
} from '../../../../../dev/fixtures/policy-documents';
import {
  CHINESE_POLICY_PRINTED,
  CHINESE_POLICY_SPACED,
  ENGLISH_REPORT_PRINTED,
} from '../../../../../dev/fixtures/printed-fixtures';
import { extractPdfText } from '../pdf-text';
import { extractDocumentMetadata, type ExtractedMetadata } from './extract';

const row = (name: string, m: ExtractedMetadata) => ({
  document: name,
  title: m.title ?? '—',
  doc_number: m.doc_number ?? '—',
  issuers: m.issuers.join(' / ') || '—',
  issued_on: m.issued_on ?? '—',
  effective_on: m.effective_on ?? '—',
  expires_on: m.expires_on ?? '—',
  doc_type: m.doc_type ?? '—',
});

const NOTHING: ExpectedMetadata = {
  title: null,
  doc_number: null,
  issuers: [],
  issued_on: null,
  effective_on: null,
  expires_on: null,
  doc_type: null,
};

describe('extractDocumentMetadata on the policy documents', () => {
  const rows: ReturnType<typeof row>[] = [];

  it.each(POLICY_DOCUMENTS.map((doc) => [doc.key, doc] as const))(
    '%s: every field, from the text a reader gives',
    (_key, doc) => {
      const extracted = extractDocumentMetadata(doc.pages);
      rows.push(row(doc.key, extracted));
      expect(extracted).toEqual(doc.expected);
    },
  );

  it.each(
    POLICY_DOCUMENTS.filter((doc) => doc.contentType === 'application/pdf').map(
      (doc) => [doc.key, doc] as const,
    ),
  )('%s: the same from the PDF as read', async (_key, doc) => {
    const { pages } = await extractPdfText(await doc.bytes(), { maxPages: 50 });
    expect(extractDocumentMetadata(pages)).toEqual(doc.expected);
  });

  it('prints the table', () => {
    console.table(rows);
    expect(rows).toHaveLength(POLICY_DOCUMENTS.length);
  });
});

describe('extractDocumentMetadata, as printed', () => {
  it('joins a title wrapped over two lines, with spread characters and full-width digits', () => {
    const pages = [
      '青 禾 市 人 民 政 府 办 公 室 文 件\n\n青政办发（２０２４）１７号\n\n' +
        '青禾市人民政府办公室关于印发青禾市创业\n担保贷款实施办法的通知\n\n各区人民政府：现将办法印发给你们。',
      '第七条　本办法自二〇二四年三月一日起施行，有效期至二〇二九年二月二十八日。\n\n青禾市人民政府办公室\n\n二〇二四年二月六日',
    ];
    expect(extractDocumentMetadata(pages)).toEqual(QINGHE_NOTICE_2024.expected);
  });

  it('reads a number under the header with its signer beside it', () => {
    const extracted = extractDocumentMetadata([
      '四川省人民政府办公厅文件\n川办规［2025］6号　签发人：某某\n四川省人民政府办公厅关于进一步做好就业工作的意见',
    ]);
    expect(extracted).toMatchObject({
      doc_number: '川办规〔2025〕6号',
      issuers: ['四川省人民政府办公厅'],
      title: '四川省人民政府办公厅关于进一步做好就业工作的意见',
      doc_type: '意见',
    });
  });

  it('reads a letter’s header without 文件, and a number in brackets under the title', () => {
    expect(
      extractDocumentMetadata([
        '青禾市人民政府办公室\n青政办函〔2025〕12号\n关于同意设立青禾市就业服务中心的批复',
      ]),
    ).toMatchObject({
      issuers: ['青禾市人民政府办公室'],
      doc_number: '青政办函〔2025〕12号',
      title: '关于同意设立青禾市就业服务中心的批复',
      doc_type: '批复',
    });
    expect(
      extractDocumentMetadata([
        '青禾市人民政府关于印发青禾市物业管理办法的通知\n（青政规〔2024〕2号）\n各区人民政府：',
      ]),
    ).toMatchObject({ doc_number: '青政规〔2024〕2号', issuers: ['青禾市人民政府'] });
  });

  it('tells two bodies of one place apart in a signature printed with one space', () => {
    const extracted = extractDocumentMetadata([
      '青财社〔2024〕45号\n\n关于做好创业担保贷款贴息资金管理工作的通知\n\n一、贴息资金按季度拨付。\n\n' +
        '青禾市财政局\u3000青禾市人力资源和社会保障局\n\n二〇二四年九月三十日',
    ]);
    expect(extracted.issuers).toEqual(['青禾市财政局', '青禾市人力资源和社会保障局']);
    expect(extracted.issued_on).toBe('2024-09-30');
  });

  it('leaves a body’s date in a sentence and a number mentioned in passing alone', () => {
    const extracted = extractDocumentMetadata([
      '关于近期工作的几点想法\n\n根据青政办发〔2024〕17号文件，2024年5月1日起施行新标准，有效期5年。',
    ]);
    expect(extracted).toEqual(NOTHING);
  });
});

describe('extractDocumentMetadata on the existing fixtures: nothing wrong', () => {
  it('the printed Chinese policy (title above its number, issuer from the title)', async () => {
    for (const fixture of [CHINESE_POLICY_PRINTED, CHINESE_POLICY_SPACED]) {
      const expected = {
        title: '青禾市人民政府办公室关于印发青禾市创业担保贷款实施办法的通知',
        doc_number: '青政办发〔2024〕17号',
        issuers: ['青禾市人民政府办公室'],
        issued_on: null,
        effective_on: '2024-03-01',
        expires_on: '2029-02-28',
        doc_type: '通知',
      };
      expect(extractDocumentMetadata(fixture.expected)).toEqual(expected);
      const { pages } = await extractPdfText(fixture.bytes(), { maxPages: 50 });
      expect(extractDocumentMetadata(pages)).toEqual(expected);
    }
  });

  it('documents that are no official documents give nothing', () => {
    for (const pages of [
      ENGLISH_REPORT_PRINTED.expected,
      CHINESE_POLICY_FIXTURE.pages,
      ENGLISH_POLICY_FIXTURE.pages,
    ]) {
      expect(extractDocumentMetadata(pages)).toEqual(NOTHING);
    }
  });
});
