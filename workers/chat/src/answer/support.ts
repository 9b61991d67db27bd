import { splitSentences } from './sentences.ts';

/**
 * One sentence checked: the contract's SentenceSupport (shared/contracts/chat-sources.ts),
 * spelled out here because `npm run eval`'s Node scripts load this file, and the contracts
 * are written for the bundler; answer.ts hands it on as the contract's type, which the
 * compiler checks.
 */
export interface Support {
  sentence_index: number;
  text: string;
  cited: number[];
  supported: boolean;
  missing?: string[];
}

/**
 * The share of a sentence's terms (CJK character bigrams, Latin word stems; figures are
 * checked on their own) that must be found in the passages it cites. Tuned on the corrupted
 * answers of bench/eval/support.ts (docs/measurements/2026-11-26-support.md): 0.4 lets through
 * some sentences taken from another page of the cited document, 0.6 and up flag a quarter
 * and more of correct sentences that restate the question in the asker's words.
 */
export const MIN_TERM_SHARE = 0.5;

/**
 * Checks each sentence of an answer against the passages it cites (against every passage
 * when it cites none): supported when every figure in it (number, date, amount, percentage,
 * document number, code) is found in them after normalisation, and at least MIN_TERM_SHARE
 * of its terms are. Deterministic, no model: a cheap guard against changed figures and
 * invented sentences, not a judge of meaning (a negated or reordered claim passes).
 *
 * `passages[i]` is the text behind citation i + 1; `markers` (files mode) are the page
 * markers the answer cites pages by, in the same order.
 */
export function checkSupport(
  answer: string,
  passages: readonly string[],
  markers?: readonly string[],
  { minTermShare = MIN_TERM_SHARE }: { minTermShare?: number } = {},
): Support[] {
  const read = passages.map(readPassage);
  let all: ReadPassage | undefined;
  return splitSentences(answer, markers).map((sentence, index) => {
    const base = { sentence_index: index, text: sentence.text, cited: sentence.cited };
    if (sentence.declines) return { ...base, supported: true };
    const behind =
      sentence.cited.length > 0
        ? sentence.cited.flatMap((n) => read[n - 1] ?? [])
        : [(all ??= merge(read))];
    const missing = figuresOf(sentence.text)
      .filter((figure) => !behind.some((passage) => holds(passage, figure)))
      .map((figure) => figure.text);
    const terms = termsOf(withoutLeadIn(sentence.text));
    const found = [...terms].filter((t) => behind.some((p) => p.terms.has(t))).length;
    const share = terms.size === 0 ? 1 : found / terms.size;
    const supported = behind.length > 0 && missing.length === 0 && share >= minTermShare;
    return { ...base, supported, ...(missing.length > 0 ? { missing } : {}) };
  });
}

interface ReadPassage {
  /** Normalised text (see normalise). */
  text: string;
  /** Each number, with where it stands in `text`. */
  numbers: Map<string, number[]>;
  /** The terms around a number at a position, computed once per passage and position. */
  windows: Map<number, Set<string>>;
  dates: Set<string>;
  terms: Set<string>;
}

function readPassage(passage: string): ReadPassage {
  const text = normalise(passage);
  const dates = new Set<string>();
  for (const date of datesIn(text)) {
    dates.add(date.key);
    // A sentence may give a passage's date without its year, or only its year and month.
    const [y, m, d] = date.key.split('-');
    if (y && m && d) dates.add(`-${m}-${d}`).add(`${y}-${m}`);
  }
  const numbers = new Map<string, number[]>();
  for (const m of text.matchAll(NUMBER)) {
    const key = String(Number(m[0]));
    numbers.set(key, [...(numbers.get(key) ?? []), m.index]);
  }
  return { text, numbers, windows: new Map(), dates, terms: termsOf(passage) };
}

function merge(passages: readonly ReadPassage[]): ReadPassage {
  const union = <T>(sets: Set<T>[]) => new Set(sets.flatMap((s) => [...s]));
  return {
    text: passages.map((p) => p.text).join('\n'),
    windows: new Map(),
    // Positions are of the joined text: each passage's shifted by the texts before it.
    numbers: passages.reduce((all, p, i) => {
      const shift = passages.slice(0, i).reduce((n, q) => n + q.text.length + 1, 0);
      for (const [key, at] of p.numbers) {
        all.set(key, [...(all.get(key) ?? []), ...at.map((a) => a + shift)]);
      }
      return all;
    }, new Map<string, number[]>()),
    dates: union(passages.map((p) => p.dates)),
    terms: union(passages.map((p) => p.terms)),
  };
}

// ---- normalisation -------------------------------------------------------------------------

/**
 * NFKC (full-width digits and letters, ［］（）), every bracket kind of document numbers
 * (〔〕［］[]()（）【】) as (), thousands separators dropped, Chinese numerals before a unit as
 * digits, and a number with 千/万/亿/million as its value: so "5,000 yuan", "5000元" and
 * "5千元" all hold the number 5000, "1268万元" the number 12680000.
 */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[〔［[【〖]/g, '(')
    .replace(/[〕］\]】〗]/g, ')')
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    .replace(
      /百分之([零〇一二两三四五六七八九十百点.\d]+)/g,
      (_, n: string) => `${chineseNumber(n) ?? n}%`,
    )
    .replace(CHINESE_NUMERAL, (run: string) => String(chineseNumber(run) ?? run))
    .replace(SCALED, (_, n: string, scale: string) => String(scaled(n, scale)));
}

const SCALE: Record<string, number> = {
  千: 1e3,
  万: 1e4,
  亿: 1e8,
  千万: 1e7,
  百万: 1e6,
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
};
const SCALED = /(\d+(?:\.\d+)?)\s*(千万|百万|千|万|亿|thousand\b|million\b|billion\b)/gi;

function scaled(number: string, scale: string): number {
  // Rounded to a whole number: 47.9 × 1e8 is not exactly 4790000000 in floating point.
  return Math.round(Number(number) * SCALE[scale.toLowerCase()]!);
}

const DIGIT: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const UNIT: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

/**
 * Chinese numerals that are amounts: a run with 十/百/千 or of two digits and more, before a
 * unit (三十万元, 十五个工作日, 二〇二五年). 一次性 or 统一 stay as they are.
 */
const CHINESE_NUMERAL =
  /(?<![\d.])[零〇一二两三四五六七八九十百千]*[十百千][零〇一二两三四五六七八九十百千]*(?=[万亿元人名个年月日天周岁项家次辆张倍%])|(?<![\d.])[零〇一二两三四五六七八九]{2,}(?=[万亿元人名个年月日天周岁项家次辆张倍%])/g;

function chineseNumber(run: string): number | undefined {
  if (/^[\d.]+$/.test(run)) return Number(run);
  if (/^[零〇一二两三四五六七八九]+$/.test(run)) {
    // 二〇二五 reads digit by digit.
    return Number([...run].map((c) => DIGIT[c]).join(''));
  }
  let total = 0;
  let digit = 0;
  for (const c of run) {
    if (c in DIGIT) digit = DIGIT[c]!;
    else if (c in UNIT) {
      total += (digit || 1) * UNIT[c]!;
      digit = 0;
    } else return undefined;
  }
  return total + digit;
}

// ---- figures -------------------------------------------------------------------------------

interface Figure {
  /** As written in the sentence: what `missing` tells. */
  text: string;
  kind: 'document' | 'code' | 'date' | 'number';
  /** What a passage must hold: normalised text, a date key, or a number. */
  key: string;
  /** Numbers: the sentence's terms right around it (see NEAR). */
  near?: Set<string>;
}

/**
 * A number is found only where the passage writes it among some of the words the sentence
 * writes around it: "离校3年内" is not held by a passage's "期限不超过3年". Characters each
 * side: the sentence's (its immediate words) and the passage's (room for other wording).
 */
const NEAR = { sentence: 8, passage: 30, latin: 3 } as const;
/** The share of the sentence's terms around a number that the passage must have around it. */
const NEAR_SHARE = 0.34;

/** 川办规〔2025〕6号: up to three characters of the issuer, the year in brackets, the number. */
const DOCUMENT = /([\p{Script=Han}A-Za-z]{0,3})\((\d{4})\)(\d+)号/gu;
/** Codes with a digit (QHAC00-2024-0001, FIN-TE-07, GT-2024-0153) and numbers such as 2023/9. */
const CODE = /\b[A-Z][A-Z\d]*(?:[-/][A-Z\d]+)+\b|\b\d{4}\/\d{1,4}\b(?!\/)/g;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const DATE_FORMS: { re: RegExp; key: (m: RegExpExecArray) => string }[] = [
  { re: /(\d{4})年(\d{1,2})月(\d{1,2})日/g, key: (m) => ymd(m[1], m[2], m[3]) },
  { re: /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g, key: (m) => ymd(m[1], m[2], m[3]) },
  {
    re: new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH_NAME}\.?,?\s+(\d{4})\b`, 'gi'),
    key: (m) => ymd(m[3], month(m[2]!), m[1]),
  },
  {
    re: new RegExp(String.raw`\b${MONTH_NAME}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'gi'),
    key: (m) => ymd(m[3], month(m[1]!), m[2]),
  },
  { re: /(\d{4})年(\d{1,2})月(?!\d)/g, key: (m) => `${Number(m[1])}-${Number(m[2])}` },
  { re: /(?<![\d年])(\d{1,2})月(\d{1,2})日/g, key: (m) => `-${Number(m[1])}-${Number(m[2])}` },
  {
    re: new RegExp(
      String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH_NAME}\b(?!\.?,?\s+\d{4})`,
      'gi',
    ),
    key: (m) => `-${month(m[2]!)}-${Number(m[1])}`,
  },
];

const ymd = (y?: string, m?: string | number, d?: string) =>
  `${Number(y)}-${Number(m)}-${Number(d)}`;
const month = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** Dates in normalised text, each once, where they are (so numbers inside them are not read twice). */
function datesIn(text: string): { key: string; at: number; length: number; text: string }[] {
  const found: { key: string; at: number; length: number; text: string }[] = [];
  for (const form of DATE_FORMS) {
    for (const m of text.matchAll(form.re)) {
      const at = m.index;
      if (found.some((f) => at < f.at + f.length && f.at < at + m[0].length)) continue;
      found.push({ key: form.key(m as RegExpExecArray), at, length: m[0].length, text: m[0] });
    }
  }
  return found;
}

const NUMBER = /\d+(?:\.\d+)?/g;

/** The figures of a sentence: document numbers, codes, dates, then the other numbers. */
export function figuresOf(sentence: string): Figure[] {
  const text = normalise(sentence);
  const figures: Figure[] = [];
  const taken: [number, number][] = [];
  const free = (at: number, length: number) =>
    !taken.some(([from, to]) => at < to && from < at + length);
  const take = (at: number, length: number) => taken.push([at, at + length]);
  for (const m of text.matchAll(DOCUMENT)) {
    const issuer = m[1]!;
    figures.push({ text: m[0], kind: 'document', key: `${issuer}(${m[2]})${m[3]}号` });
    take(m.index, m[0].length);
  }
  for (const m of text.matchAll(CODE)) {
    if (!/\d/.test(m[0]) || !free(m.index, m[0].length)) continue;
    figures.push({ text: m[0], kind: 'code', key: m[0].replace(/\s/g, '') });
    take(m.index, m[0].length);
  }
  for (const date of datesIn(text)) {
    if (!free(date.at, date.length)) continue;
    figures.push({ text: date.text, kind: 'date', key: date.key });
    take(date.at, date.length);
  }
  for (const m of text.matchAll(NUMBER)) {
    if (!free(m.index, m[0].length)) continue;
    const unit = /^\s*(?:%|元|万|亿|人|名|个|年|月|日|天|岁|辆|张|倍)/.exec(
      text.slice(m.index + m[0].length),
    );
    const near = termsOf(
      around(text, m.index, m.index + m[0].length, NEAR.sentence).replace(/\d+(?:\.\d+)?/g, ' '),
    );
    figures.push({
      text: m[0] + (unit?.[0].trim() ?? ''),
      kind: 'number',
      key: String(Number(m[0])),
      near,
    });
  }
  return figures;
}

function holds(passage: ReadPassage, figure: Figure): boolean {
  switch (figure.kind) {
    case 'date':
      return passage.dates.has(figure.key);
    case 'number': {
      const near = [...(figure.near ?? [])];
      const at = passage.numbers.get(figure.key) ?? [];
      if (near.length === 0) return at.length > 0;
      return at.some((index) => {
        let window = passage.windows.get(index);
        if (!window) {
          window = termsOf(around(passage.text, index, index + figure.key.length, NEAR.passage));
          passage.windows.set(index, window);
        }
        const found = near.filter((t) => window.has(t)).length;
        return found / near.length >= NEAR_SHARE;
      });
    }
    case 'code':
      return passage.text.replace(/\s/g, '').includes(figure.key);
    case 'document': {
      // The issuer as far as the passage writes it: "青人社发" and "人社发" both name it.
      const core = figure.key.slice(figure.key.indexOf('('));
      const issuer = figure.key.slice(0, figure.key.indexOf('('));
      return (
        passage.text.includes(issuer.slice(-2) + core) || (!issuer && passage.text.includes(core))
      );
    }
  }
}

/**
 * The text within `chars` characters of [from, to) on each side: CJK characters count one
 * each; around Latin text the reach is NEAR.latin times as far (a window holds a few words).
 */
function around(text: string, from: number, to: number, chars: number): string {
  const latin = /[A-Za-z]/.test(text.slice(Math.max(0, from - 3), to + 3));
  const reach = latin ? chars * NEAR.latin : chars;
  return `${text.slice(Math.max(0, from - reach), from)} ${text.slice(to, to + reach)}`;
}

/**
 * The answer's own framing at a sentence's start ("根据文件，", "According to the policy,"):
 * not a claim, and in no passage, so not counted against the sentence.
 */
const LEAD_IN =
  /^(?:(?:根据|依据|按照|据)(?:所提供的|上述|相关)?(?:文件|资料|材料|规定|政策|通知|办法|细则|内容|来源|上下文)(?:的?规定|所述|显示|中)?[，,：:]?|(?:according to|under|as stated in|based on|per) (?:the )?(?:\w+ ){0,2}?(?:rules|policy|documents?|context|sources?|regulation|scheme|guidance|text|file)s?,?\s*)/i;

export const withoutLeadIn = (sentence: string) => sentence.replace(LEAD_IN, '');

// ---- terms ---------------------------------------------------------------------------------

const STOP = new Set(
  (
    'a an the and or but of to in on at by for with from as is are was were be been being it its ' +
    'this that these those which who whom what when where how not no than then there their they ' +
    'he she his her we you your our i me my can may will shall would should could must do does ' +
    'did has have had if so such any all each per into under over about also only more most ' +
    'according based source sources document documents context provided answer'
  ).split(' '),
);

/** CJK character bigrams (a lone character alone) and Latin word stems, figures left out. */
export function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  const plain = text.normalize('NFKC').toLowerCase();
  for (const run of plain.match(/\p{Script=Han}+/gu) ?? []) {
    const chars = [...run];
    if (chars.length === 1) terms.add(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) terms.add(chars[i]! + chars[i + 1]!);
  }
  for (const word of plain.match(/[a-z][a-z'’-]*[a-z]|[a-z]/g) ?? []) {
    if (STOP.has(word) || word.length < 2) continue;
    terms.add(stem(word));
  }
  return terms;
}

/** A light English stem: enough that "permits" finds "permit" and "applied" finds "apply". */
function stem(word: string): string {
  const w = word.replace(/['’]s$/, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && w.endsWith('ied')) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('es') && /(?:ss|sh|ch|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}
