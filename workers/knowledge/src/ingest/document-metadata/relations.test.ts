import { describe, expect, it } from 'vitest';
import { POLICY_DOCUMENTS } from '../../../../../dev/fixtures/policy-documents';
import { CHINESE_POLICY_PRINTED } from '../../../../../dev/fixtures/printed-fixtures';
import { detectRelations } from './relations';

describe('detectRelations', () => {
  it.each(POLICY_DOCUMENTS.map((doc) => [doc.key, doc] as const))(
    '%s: the relations its text states',
    (_key, doc) => {
      expect(detectRelations(doc.pages)).toEqual(doc.relations);
    },
  );

  it.each([
    [
      '原《青禾市创业担保贷款实施办法》（青政办发［2019］３号）不再执行。',
      [
        {
          relation: 'repeals',
          doc_number: '青政办发〔2019〕3号',
          title: '青禾市创业担保贷款实施办法',
        },
      ],
    ],
    [
      '本办法自2025年6月1日起施行，《甲办法》（青政发〔2018〕2号）、《乙规定》（青政发〔2019〕5号）予以废止。',
      [
        { relation: 'repeals', doc_number: '青政发〔2018〕2号', title: '甲办法' },
        { relation: 'repeals', doc_number: '青政发〔2019〕5号', title: '乙规定' },
      ],
    ],
    [
      '《青禾市物业管理办法》（青政发〔2020〕1号），自本办法施行之日起废止。',
      [{ relation: 'repeals', doc_number: '青政发〔2020〕1号', title: '青禾市物业管理办法' }],
    ],
    [
      '青政办发〔2019〕3号同时废止。',
      [{ relation: 'repeals', doc_number: '青政办发〔2019〕3号', title: null }],
    ],
    [
      '市政府决定，对《青禾市物业管理办法》作如下修改：',
      [{ relation: 'amends', doc_number: null, title: '青禾市物业管理办法' }],
    ],
    [
      '青禾市人民政府关于废止《青禾市物业管理暂行办法》的决定',
      [{ relation: 'repeals', doc_number: null, title: '青禾市物业管理暂行办法' }],
    ],
    [
      '关于修改《青禾市物业管理办法》的决定',
      [{ relation: 'amends', doc_number: null, title: '青禾市物业管理办法' }],
    ],
    [
      '本标准代替《党政机关公文格式》。',
      [{ relation: 'replaces', doc_number: null, title: '党政机关公文格式' }],
    ],
    [
      'This regulation revokes the Parking Permits Regulation (REG-2019-04).',
      [{ relation: 'repeals', doc_number: 'REG-2019-04', title: 'Parking Permits Regulation' }],
    ],
  ])('%s', (sentence, expected) => {
    expect(detectRelations([sentence])).toEqual(expected);
  });

  it.each([
    '根据《青禾市创业担保贷款实施办法》（青政办发〔2024〕17号）规定，制定本细则。',
    '青政办发〔2024〕17号文件印发以来，申请人数明显增加。',
    '请各区按照青政办发〔2024〕17号要求报送材料。',
    '《关于废止部分规章的决定》已经市政府常务会议通过。',
    '本办法施行后，各区不得另行制定与本办法相抵触的规定。',
    'This policy replaces the previous arrangements.',
    'The Homeworking Policy (HR-POL-009) was reviewed last year.',
  ])('no relation: %s', (sentence) => {
    expect(detectRelations([sentence])).toEqual([]);
  });

  it('finds none in the printed policy that only mentions rules', () => {
    expect(detectRelations(CHINESE_POLICY_PRINTED.expected)).toEqual([]);
  });
});
