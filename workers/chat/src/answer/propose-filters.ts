import type { z } from 'zod';
import type { DocumentFilters } from '#shared/contracts/document-metadata';

export type Filters = z.output<typeof DocumentFilters>;

// Filters a question states in words ("只看杭州市2024年以后的文件", "2024年以来四川省发布的办法"),
// read by fixed rules. Deterministic and conservative on purpose: a filter narrows what the
// answer may cite, so a wrong one hides the right document; each rule fires only on a phrase
// that can mean nothing else, and the user sees every filter applied (the `filters` event)
// and can remove it. A model could propose filters too, and would read freer phrasing, but it
// would cost a call before retrieval, answer differently run to run, and could invent an
// issuer; these rules cost nothing and are tested phrase by phrase.

/** Place names: 2–3 characters and 省/市/区/县 (黑龙江省, 杭州市, 西湖区), or an autonomous region. */
const PLACE = String.raw`[\p{Script=Han}]{2,3}?(?:省|市|区|县)|[\p{Script=Han}]{2,4}?自治区`;
const BODY = '人民政府办公厅|人民政府办公室|人民政府|办公厅|办公室';
/** What may stand before a place name: the start, a non-Han character, or these words. */
const BEFORE = '只看|仅看|只查|查看|看看|查询|关于|只要|是|由|的|在|以来|以后|之后|以前|之前|年';
/** What may follow it: an issuing body, a verb of issuing, 关于, 的, 现行, a year, or the end. */
const AFTER = String.raw`(?=${BODY}|发布|印发|出台|制定|颁布|下发|发文|关于|的|现行|仍|\d|$|[\s，。,.?？!！])`;
const ISSUER = new RegExp(
  String.raw`(?:^|[^\p{Script=Han}]|${BEFORE})(${PLACE})(${BODY})?${AFTER}`,
  'u',
);
/** A place name's first character that makes it not a place: 全省, 各市县, 本区, 我市. */
const NOT_A_PLACE = /^(?:全|各|本|我|该|每|省|市|区|县|城|地|社|园|景|辖|开发|新)/u;

const DOC_TYPES = [
  '办法',
  '通知',
  '意见',
  '规定',
  '决定',
  '方案',
  '细则',
  '条例',
  '通告',
  '公告',
  '规划',
  '批复',
  '指引',
  '指南',
];
/** A type named as what is asked for: after 的 or a verb of issuing, at the end of a phrase. */
const DOC_TYPE = new RegExp(
  String.raw`(?:的|发布|印发|出台|制定|颁布)(${DOC_TYPES.join('|')})(?=$|[\s，。,.?？!！:：;；]|中|里|有|哪|是|吗|对)`,
  'u',
);

const IN_FORCE =
  /现行有效|仍然有效|依然有效|仍有效|现行的|尚在有效期|\b(?:still|currently) (?:in force|valid)\b|\bin force\b/iu;

const YEAR = String.raw`((?:19|20)\d{2})`;
const RANGE = new RegExp(String.raw`${YEAR}年?\s*(?:至|到|-|—|–|~|～)\s*${YEAR}年`, 'u');
const FROM = new RegExp(String.raw`${YEAR}年(?:以后|以来|之后|起|后|及以后)`, 'u');
const TO = new RegExp(String.raw`(?:截至|截止到?|至)${YEAR}年(?:底|末)?`, 'u');
const BEFORE_YEAR = new RegExp(String.raw`${YEAR}年(?:以前|之前|前)`, 'u');
const IN_YEAR = new RegExp(String.raw`${YEAR}年(?:发布|印发|出台|制定|颁布|下发)`, 'u');
const EN_RANGE = new RegExp(String.raw`\bfrom ${YEAR} to ${YEAR}\b`, 'iu');
const EN_FROM = new RegExp(String.raw`\b(?:since|after) ${YEAR}\b`, 'iu');
const EN_BEFORE = new RegExp(String.raw`\bbefore ${YEAR}\b`, 'iu');

const first = (year: string) => `${year}-01-01`;
const last = (year: string) => `${year}-12-31`;

/** The issue-date range a question states, if any. */
function issuedRange(question: string): Pick<Filters, 'issued_from' | 'issued_to'> {
  let m = RANGE.exec(question) ?? EN_RANGE.exec(question);
  // A range backwards ("2025年至2023年") is a slip no rule should guess at: none.
  if (m) return m[1]! <= m[2]! ? { issued_from: first(m[1]!), issued_to: last(m[2]!) } : {};
  const range: Pick<Filters, 'issued_from' | 'issued_to'> = {};
  if ((m = FROM.exec(question) ?? EN_FROM.exec(question))) {
    // "2024年以后的文件" is read with 2024 in it, as such questions usually mean; "after 2024"
    // in English too, since a user can remove the filter and the opposite reading hides 2024.
    range.issued_from = first(m[1]!);
  }
  if ((m = TO.exec(question))) range.issued_to = last(m[1]!);
  if ((m = BEFORE_YEAR.exec(question) ?? EN_BEFORE.exec(question))) {
    range.issued_to = last(String(Number(m[1]) - 1));
  }
  if (!range.issued_from && !range.issued_to && (m = IN_YEAR.exec(question))) {
    return { issued_from: first(m[1]!), issued_to: last(m[1]!) };
  }
  if (range.issued_from && range.issued_to && range.issued_from > range.issued_to) return {};
  return range;
}

/**
 * The filters a question states, or undefined when it states none. Only for a request that
 * sent no filters of its own: explicit ones, even empty, always win.
 */
export function proposeFilters(question: string): Filters | undefined {
  const text = question.normalize('NFKC');
  const filters: Filters = {};
  const issuer = ISSUER.exec(text);
  if (issuer && !NOT_A_PLACE.test(issuer[1]!)) filters.issuer = issuer[1]! + (issuer[2] ?? '');
  const type = DOC_TYPE.exec(text);
  if (type) filters.doc_type = type[1]!;
  Object.assign(filters, issuedRange(text));
  if (IN_FORCE.test(text)) filters.in_force = true;
  return Object.keys(filters).length > 0 ? filters : undefined;
}
