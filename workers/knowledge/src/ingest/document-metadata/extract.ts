import { CHINESE_DATE_SOURCE, chineseDate, englishDate, lastDayAfterYears } from './dates';
import { docNumberLine, REFERENCE_VALUE } from './doc-number';
import { hasHan, linesOf, normaliseText } from './text';

/** What a document says of itself, each field null (issuers empty) where nothing clearly says. */
export interface ExtractedMetadata {
  title: string | null;
  doc_number: string | null;
  issuers: string[];
  issued_on: string | null;
  effective_on: string | null;
  expires_on: string | null;
  doc_type: string | null;
}

/** The title's last word names the type of a Chinese official document; longest first. */
export const CHINESE_TYPES = [
  '实施意见',
  '通知',
  '意见',
  '办法',
  '规定',
  '决定',
  '方案',
  '细则',
  '条例',
  '公告',
  '通告',
  '批复',
  '报告',
  '规划',
  '纲要',
  '指南',
  '通报',
  '请示',
  '纪要',
  '规则',
  '措施',
  '函',
] as const;
const ENGLISH_TYPES = [
  'policy',
  'regulation',
  'regulations',
  'procedure',
  'guidance',
  'guidelines',
  'standard',
  'strategy',
  'plan',
  'code',
  'directive',
  'notice',
  'rules',
  'framework',
  'charter',
] as const;

/** How far into the document its header and title are looked for, and its date at the end. */
const HEAD_LINES = 40;
const TAIL_LINES = 8;

/** A body's name ends in one of these (青禾市人民政府办公室, 青禾市财政局, 国务院). */
const BODY =
  /(?:政府|办公室|办公厅|委员会|局|厅|部|委|院|署|办|会|中心|行|公司|党委|党组|司|处|所)$/u;
const isBody = (name: string) => name.length >= 3 && name.length <= 30 && BODY.test(name);

/** A line naming one or more bodies side by side (a joint signature or header). */
function bodiesOf(line: string): string[] | null {
  const parts = line
    .split(/\s{2,}|\s*、\s*/u)
    .filter(Boolean)
    .flatMap(samePlaceTwice);
  return parts.length > 0 && parts.every(isBody) ? parts : null;
}

/**
 * Two bodies of one place printed with one space between them lose it with the spaces of
 * justified lines (青禾市财政局 青禾市人力资源和社会保障局): the place named again starts the
 * second one.
 */
function samePlaceTwice(part: string): string[] {
  const place = /^\p{Script=Han}{1,6}?[省市县区州盟旗]/u.exec(part)?.[0];
  const again = place ? part.indexOf(place, place.length) : -1;
  return again > 0 ? [part.slice(0, again), ...samePlaceTwice(part.slice(again))] : [part];
}

/**
 * The document's own metadata from its pages' texts (first pages: header, number and title;
 * the end: the issuer and 成文日期; the whole text: 施行 and 有效期 sentences). Conservative:
 * a field is set only where a pattern clearly matches, and null otherwise.
 */
export function extractDocumentMetadata(pages: readonly string[]): ExtractedMetadata {
  const text = normaliseText(pages.join('\n\n'));
  const lines = linesOf(text);
  const head = lines.slice(0, HEAD_LINES);
  return hasHan(head.slice(0, 10).join('')) ? chinese(text, lines) : english(text, head);
}

// ---------------------------------------------------------------------------------------------
// Chinese official documents

const DATE_LINE = new RegExp(`^[(（]?${CHINESE_DATE_SOURCE}[)）]?$`, 'u');

function chinese(text: string, lines: readonly string[]): ExtractedMetadata {
  const head = lines.slice(0, HEAD_LINES);
  const numberAt = head.slice(0, 12).findIndex((line) => docNumberLine(line) !== null);
  const docNumber = numberAt >= 0 ? docNumberLine(head[numberAt]!) : null;
  const header = redHeader(head, numberAt);

  // The title follows the number (or the header); some print it above the number instead.
  const after = Math.max(numberAt, header?.end ?? -1);
  let title = after >= 0 ? titleAt(head, after + 1, false) : null;
  for (let i = 0; !title && i < Math.min(head.length, 6); i++) title = titleAt(head, i, true);

  const issued = issuedDate(lines);
  const issuers =
    header?.issuers ??
    (title ? titleIssuers(title) : null) ??
    (issued?.signature ? issued.signature : []);
  const issuedOn = issued?.date ?? null;
  const effectiveOn = effectiveDate(text, issuedOn);
  return {
    title,
    doc_number: docNumber,
    issuers,
    issued_on: issuedOn,
    effective_on: effectiveOn,
    expires_on: expiryDate(text, effectiveOn ?? issuedOn),
    doc_type: title ? (CHINESE_TYPES.find((type) => title.endsWith(type)) ?? null) : null,
  };
}

/**
 * The red header: the first lines, ending with one that ends in 文件 (青禾市人民政府办公室文件;
 * a joint document stacks its bodies' names above it), before the number; or, without 文件,
 * the lines right above the number when each names bodies. Its bodies are the issuers, in the
 * order printed.
 */
function redHeader(head: readonly string[], numberAt: number) {
  const limit = numberAt >= 0 ? Math.min(numberAt, 6) : 4;
  let end = head.slice(0, limit).findIndex((line) => line.endsWith('文件'));
  // A letter's header (信函格式) names its bodies without 文件, right above the number.
  if (end < 0 && numberAt >= 1 && numberAt <= 3) end = numberAt - 1;
  if (end < 0) return null;
  const issuers: string[] = [];
  for (const line of head.slice(0, end + 1)) {
    const names = bodiesOf(line.replace(/\s*文件$/u, ''));
    if (!names) return null;
    issuers.push(...names);
  }
  return { end, issuers };
}

const TYPE_AT_END = new RegExp(`(?:${CHINESE_TYPES.join('|')})$`, 'u');

/**
 * The title starting at line `at`, over up to three lines (a long title wraps): no sentence
 * punctuation, ending with a type. `aboutOnly`: only a 关于…的通知 shape counts (a title
 * looked for without a number or header before it).
 */
function titleAt(head: readonly string[], at: number, aboutOnly: boolean): string | null {
  let candidate = '';
  for (let k = at; k < Math.min(head.length, at + 3); k++) {
    const line = head[k]!;
    if (/[。：:；;，,]/u.test(line) || docNumberLine(line) || DATE_LINE.test(line)) return null;
    candidate += line;
    if (candidate.length > 100) return null;
    if (TYPE_AT_END.test(candidate) && candidate.length >= 4) {
      if (aboutOnly && !/关于.+的\p{Script=Han}{1,4}$/u.test(candidate)) return null;
      return candidate;
    }
  }
  return null;
}

/** 青禾市人民政府办公室关于…: the bodies named before 关于, when they are bodies. */
function titleIssuers(title: string): string[] | null {
  const prefix = /^(.+?)关于/u.exec(title)?.[1];
  return prefix ? bodiesOf(prefix) : null;
}

/**
 * 成文日期: a line that is only a date, after a line of the issuing bodies (the signature),
 * or else one among the document's last lines.
 */
function issuedDate(lines: readonly string[]) {
  for (let i = 1; i < lines.length; i++) {
    if (!DATE_LINE.test(lines[i]!)) continue;
    const signature = bodiesOf(lines[i - 1]!);
    if (signature) return { date: lineDate(lines[i]!), signature };
  }
  for (let i = lines.length - 1; i >= Math.max(0, lines.length - TAIL_LINES); i--) {
    if (DATE_LINE.test(lines[i]!)) return { date: lineDate(lines[i]!), signature: null };
  }
  return null;
}

const lineDate = (line: string) => chineseDate(DATE_LINE.exec(line)!);

/** A sentence about the document itself: 本办法…, 本通知…. */
const OWN_SENTENCE = new RegExp(
  `本\\p{Script=Han}{0,6}?(?:${CHINESE_TYPES.join('|')}|政策|文件|制度)`,
  'u',
);

function ownSentences(text: string): string[] {
  return text.split(/[。\n]/u).filter((sentence) => OWN_SENTENCE.test(sentence));
}

const EFFECTIVE_ON = new RegExp(`自${CHINESE_DATE_SOURCE}起(?:施行|执行|实施|生效)`, 'u');
const EFFECTIVE_ON_ISSUE = /自(?:印发|发布|公布|下发|签发)之日起(?:施行|执行|实施|生效)/u;

/** 本办法自2025年6月1日起施行 (or 自印发之日起施行: the date of issue). */
function effectiveDate(text: string, issuedOn: string | null): string | null {
  for (const sentence of ownSentences(text)) {
    const match = EFFECTIVE_ON.exec(sentence);
    if (match) return chineseDate(match);
    if (EFFECTIVE_ON_ISSUE.test(sentence) && issuedOn) return issuedOn;
  }
  return null;
}

const EXPIRES_ON = new RegExp(`有效期(?:至|截至|到)${CHINESE_DATE_SOURCE}`, 'u');
const VALID_FOR = /有效期(?:为)?(\d{1,2}|[一二三四五六七八九十]{1,2})年/u;

/** 有效期至2030年5月31日, or 有效期5年 from the effective date (the day before, N years on). */
function expiryDate(text: string, start: string | null): string | null {
  for (const sentence of ownSentences(text)) {
    const until = EXPIRES_ON.exec(sentence);
    if (until) return chineseDate(until);
    const years = VALID_FOR.exec(sentence);
    if (years && start) {
      const count = /^\d+$/.test(years[1]!) ? Number(years[1]) : smallChinese(years[1]!);
      if (count > 0) return lastDayAfterYears(start, count);
    }
  }
  return null;
}

function smallChinese(text: string): number {
  const digits = '零一二三四五六七八九';
  if (text === '十') return 10;
  if (text.startsWith('十')) return 10 + digits.indexOf(text[1]!);
  return digits.indexOf(text);
}

// ---------------------------------------------------------------------------------------------
// English policies: labelled lines under the title

const LABELS = {
  reference:
    /^(?:reference(?: number| no\.?)?|ref\.?(?: no\.?)?|policy (?:number|no\.?)|document (?:number|no\.?))\s*[:：]\s*(.+)$/i,
  issuer: /^(?:issued by|issuing (?:body|authority))\s*[:：]\s*(.+)$/i,
  issued: /^(?:date of issue|issue date|date issued|issued on|issued)\s*[:：]\s*(.+)$/i,
  effective:
    /^(?:effective from|effective date|effective|in force from|commencement date)\s*[:：]\s*(.+)$/i,
  expires: /^(?:expiry date|expires(?: on)?|valid until)\s*[:：]\s*(.+)$/i,
} as const;

const TAKES_EFFECT =
  /\bthis (?:policy|regulation|procedure|guidance|standard|directive) (?:takes effect|comes into (?:force|effect)|is effective) (?:on|from) ([^.;]+)/i;

function english(text: string, head: readonly string[]): ExtractedMetadata {
  const labelled = (label: RegExp) => {
    for (const line of head.slice(0, 15)) {
      const match = label.exec(line);
      if (match) return match[1]!.trim();
    }
    return null;
  };
  const reference = labelled(LABELS.reference);
  const issuer = labelled(LABELS.issuer);
  const hasLabels =
    reference !== null ||
    issuer !== null ||
    head.slice(0, 15).some((line) => Object.values(LABELS).some((l) => l.test(line)));
  // A title is the first line only when labelled lines under it show a policy's front matter.
  const first = head[0];
  const title =
    hasLabels &&
    first &&
    first.length <= 120 &&
    !/[.:]$/.test(first) &&
    !Object.values(LABELS).some((l) => l.test(first))
      ? first
      : null;
  const lastWord = title?.split(/\s+/).at(-1)?.toLowerCase();
  const effective = labelled(LABELS.effective);
  const expires = labelled(LABELS.expires);
  const issued = labelled(LABELS.issued);
  const takesEffect = TAKES_EFFECT.exec(text)?.[1];
  return {
    title,
    doc_number: reference ? (REFERENCE_VALUE.exec(reference)?.[1] ?? null) : null,
    issuers: issuer ? [issuer.replace(/\.$/, '')] : [],
    issued_on: issued ? englishDate(issued) : null,
    effective_on: effective
      ? englishDate(effective)
      : takesEffect
        ? englishDate(takesEffect)
        : null,
    expires_on: expires ? englishDate(expires) : null,
    doc_type: lastWord && (ENGLISH_TYPES as readonly string[]).includes(lastWord) ? lastWord : null,
  };
}
