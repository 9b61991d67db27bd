import { describe, expect, it } from 'vitest';
import { proposeFilters } from './propose-filters';

describe('filters proposed from the question', () => {
  it.each([
    ['只看杭州市2024年以后的文件', { issuer: '杭州市', issued_from: '2024-01-01' }],
    [
      '西湖区2024年以来发布的办法：补贴标准',
      { issuer: '西湖区', doc_type: '办法', issued_from: '2024-01-01' },
    ],
    [
      '2024年以来四川省发布的办法',
      { issuer: '四川省', doc_type: '办法', issued_from: '2024-01-01' },
    ],
    [
      '四川省人民政府办公厅关于就业补贴的通知有哪些',
      { issuer: '四川省人民政府办公厅', doc_type: '通知' },
    ],
    ['杭州市人民政府印发的意见', { issuer: '杭州市人民政府', doc_type: '意见' }],
    [
      '西湖区2023年发布的方案',
      { issuer: '西湖区', doc_type: '方案', issued_from: '2023-01-01', issued_to: '2023-12-31' },
    ],
    ['2022年至2024年的补贴政策', { issued_from: '2022-01-01', issued_to: '2024-12-31' }],
    ['至2025年的就业政策', { issued_to: '2025-12-31' }],
    ['2024年之前的住房公积金规定', { issued_to: '2023-12-31' }],
    ['现行有效的创业担保贷款政策', { in_force: true }],
    ['哪些补贴政策仍然有效', { in_force: true }],
    ['黑龙江省现行有效的办法', { issuer: '黑龙江省', doc_type: '办法', in_force: true }],
    ['housing policies since 2023 still in force', { issued_from: '2023-01-01', in_force: true }],
    ['grants from 2021 to 2023', { issued_from: '2021-01-01', issued_to: '2023-12-31' }],
    ['rules made before 2020', { issued_to: '2019-12-31' }],
  ])('%s', (question, filters) => {
    expect(proposeFilters(question)).toEqual(filters);
  });

  it.each([
    '就业补贴怎么申请？',
    '全省的就业补贴标准是多少',
    '各市县如何落实这个政策',
    '城市规划区内的建设有什么要求',
    '这个通知说了什么',
    '补贴47.9亿元用在哪里',
    'What does the housing policy say about eligibility?',
    '2025年至2023年的政策',
  ])('proposes nothing for %s', (question) => {
    expect(proposeFilters(question)).toBeUndefined();
  });
});
