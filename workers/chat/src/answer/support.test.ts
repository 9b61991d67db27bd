import { describe, expect, it } from 'vitest';
import { changeDate, changeDocument, changeNumber } from '../../../../bench/eval/support.ts';
import { checkSupport, figuresOf, normalise } from './support';

const EV = [
  '青禾市商务局　青禾市财政局\n青禾市新能源汽车消费补贴实施细则\n青商发〔2024〕19号　统一编号：QHDR01-2024-0007',
  '第二条　补贴对象为2024年6月1日至2024年12月31日期间，在本市购买新能源乘用车并在本市登记上牌的个人消费者。',
  '第三条　购买纯电动乘用车的，每辆一次性补贴5000元；购买插电式混合动力（含增程式）乘用车的，每辆补贴3000元。',
].join('\n\n');
const OTHER = '第六条　消费者应当自购车发票开具之日起90日内提出申请，逾期不予受理。';
const GRANT =
  'Grants range from 5,000 euros to 50,000 euros. Round 1 closes on 15 March 2024 and round 2 on 30 September 2024. Policy FIN-TE-07 replaces version 2.9.';

const check = (sentence: string, passages = [EV, OTHER, GRANT]) =>
  checkSupport(`1. ${sentence} [1]`, passages)[0]!;

describe('normalise', () => {
  it('unifies brackets, full-width digits, thousands separators and scaled amounts', () => {
    expect(normalise('川办规［2025]6号')).toBe(normalise('川办规〔2025〕6号'));
    expect(normalise('川办规（2025）6号')).toBe('川办规(2025)6号');
    expect(normalise('５,０００元')).toBe('5000元');
    expect(normalise('5千元')).toBe('5000元');
    expect(normalise('1268万元')).toBe('12680000元');
    expect(normalise('三十万元')).toBe('300000元');
    expect(normalise('百分之五')).toBe('5%');
    expect(normalise('一次性')).toBe('一次性');
  });
});

describe('figuresOf', () => {
  it('takes document numbers and dates whole, then the other numbers', () => {
    expect(
      figuresOf('依据青商发［2024]19号，自2024年6月1日起每辆补贴5000元，占4.8%').map((f) => f.text),
    ).toEqual(['青商发(2024)19号', '2024年6月1日', '5000元', '4.8%']);
  });
});

describe('checkSupport', () => {
  it('supports a sentence whose figures and words the cited passage has, however written', () => {
    expect(check('购买纯电动乘用车的，每辆一次性补贴５,０００元。').supported).toBe(true);
    expect(check('根据文件，购买纯电动乘用车每辆补贴5千元。').supported).toBe(true);
    expect(check('本细则即青商发［2024]19号。').supported).toBe(true);
    expect(
      check('补贴对象为2024-06-01至2024-12-31期间购买新能源乘用车的个人消费者。').supported,
    ).toBe(true);
    expect(
      checkSupport('Round 2 closes on 30 September 2024 [3].', [EV, OTHER, GRANT])[0]!.supported,
    ).toBe(true);
  });

  it('catches a changed number, and says which', () => {
    const sentence = changeNumber('购买纯电动乘用车的，每辆一次性补贴5000元。')!;
    expect(sentence).toContain('6000元');
    expect(check(sentence)).toMatchObject({ supported: false, missing: ['6000元'] });
  });

  it('catches a number the passage has only elsewhere (19 is in its document number)', () => {
    expect(check('购买纯电动乘用车的，每辆一次性补贴19元。')).toMatchObject({
      supported: false,
      missing: ['19元'],
    });
  });

  it('catches a changed date', () => {
    const sentence = changeDate('补贴对象为2024年6月1日至2024年12月31日期间购车的个人消费者。')!;
    expect(sentence).toContain('2024年6月3日');
    expect(check(sentence)).toMatchObject({ supported: false, missing: ['2024年6月3日'] });
    expect(
      checkSupport('Round 1 closes on 17 March 2024 [3].', [EV, OTHER, GRANT])[0]!.supported,
    ).toBe(false);
  });

  it('catches a changed document number and code, whatever the brackets', () => {
    const sentence = changeDocument('本细则即青商发〔2024〕19号。')!;
    expect(sentence).toBe('本细则即青商发〔2024〕20号。');
    expect(check(sentence).supported).toBe(false);
    expect(check('本细则即青商发（2024）19号。').supported).toBe(true);
    expect(
      checkSupport('Policy FIN-TE-08 replaces version 2.9 [3].', [EV, OTHER, GRANT])[0],
    ).toMatchObject({
      supported: false,
      missing: ['FIN-TE-08'],
    });
  });

  it('catches an invented sentence, and one that cites the wrong passage', () => {
    expect(check('申请人须先缴纳保证金，并参加市里组织的驾驶培训。').supported).toBe(false);
    expect(check('消费者应当自购车发票开具之日起90日内提出申请。').supported).toBe(false);
    expect(
      checkSupport('1. 消费者应当自购车发票开具之日起90日内提出申请 [2]', [EV, OTHER])[0]!
        .supported,
    ).toBe(true);
  });

  it('checks a sentence that cites nothing against every passage', () => {
    const [support] = checkSupport('消费者应当在90日内提出申请。', [EV, OTHER]);
    expect(support).toMatchObject({ cited: [], supported: true });
  });

  it('counts "I don\'t know" as supported, and a citation of no passage as unsupported', () => {
    expect(checkSupport('根据所提供的资料，我不知道。', [EV])[0]!.supported).toBe(true);
    expect(checkSupport('每辆补贴5000元 [7]', [EV])[0]).toMatchObject({
      cited: [7],
      supported: false,
    });
  });

  it('numbers sentences from 0, headings skipped', () => {
    const support = checkSupport('## 补贴\n\n1. 每辆一次性补贴5000元 [1]\n2. 每辆补贴3000元 [1]', [
      EV,
    ]);
    expect(support.map((s) => s.sentence_index)).toEqual([0, 1]);
  });
});
