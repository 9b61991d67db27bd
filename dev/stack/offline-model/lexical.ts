/**
 * Deterministic lexical text features shared by the offline model's embeddings and its
 * extractive answers: one tokenizer, feature hashing, and the "lexical + constant" embedding.
 * See the comment at the top of ../offline-model.ts for the formula and measured similarities.
 */

/** Weight of the constant direction e0: cosine(a, b) = W + (1 − W) · cos_lex(a, b). */
export const CONSTANT_WEIGHT = 0.42;

/** Han, Hiragana, Katakana (plus the prolonged-sound mark) and Hangul. */
const CJK_CLASS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30FC';
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u');
/** A run of CJK characters, or a Latin/digit word (letters, marks, digits; never CJK). */
const TOKEN_RE = new RegExp(
  `[${CJK_CLASS}]+|[\\p{L}\\p{N}](?:(?![${CJK_CLASS}])[\\p{L}\\p{M}\\p{N}])*`,
  'gu',
);

/** A small English stop-word list (function words, question words, filler verbs). */
export const ENGLISH_STOP = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before ' +
    'being below between both but by can could did do does doing dont down during each either ' +
    'etc few for from further had has have having he her here hers herself him himself his how ' +
    'i if in into is it its itself just me might more most must my myself no nor not of off on ' +
    'once only or other our ours ourselves out over own per please same shall she should so some ' +
    'such tell than that the their theirs them themselves then there these they this those ' +
    'through to too under until up upon very via was we were what whats when where which while ' +
    'who whom whose why will with would yes yet you your yours yourself'
  ).split(' '),
);

/** CJK function characters, question words and connectives that carry no topic. */
export const CJK_STOP = new Set(
  (
    '的 了 是 在 和 与 及 或 也 都 而 吗 呢 吧 啊 之 其 这 那 个 把 被 对 于 为 以 等 着 过 ' +
    '什么 怎么 怎样 如何 哪些 哪个 请问 是否 可以 我们 你们 他们 这个 那个 这些 那些 以及 或者 ' +
    '因为 所以 但是 如果 就是 还是 的是 是什 么是 有哪 有什 哪里 为什 多少'
  )
    .split(' ')
    .filter(Boolean),
);

/** Function characters that never start or end a bigram. */
export const CJK_BREAK = new Set(Array.from('的了吗呢吧啊么是在和与及或也都而并把被着之其'));

export interface Token {
  /** Normalised token text (lowercase; CJK unigram or bigram; stemmed Latin word). */
  text: string;
  /** Relative importance: CJK unigrams count less than words and CJK bigrams. */
  weight: number;
  /** True for Latin/digit words and CJK bigrams: evidence strong enough on its own. */
  strong: boolean;
}

/** Weight of a CJK single character relative to a CJK bigram or a Latin word. */
const CJK_UNIGRAM_WEIGHT = 0.5;

/** Words are cut to this many characters after plural folding ("stemming by truncation"). */
const STEM_LENGTH = 6;

/**
 * Light English stemming: fold plurals (policies → policy, credits → credit; not business,
 * status, analysis), then truncate to six characters so that eligible/eligibility and
 * require/requirements meet. Numbers are kept whole.
 */
function stem(word: string): string {
  if (/\d/.test(word)) return word;
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  return w.length > STEM_LENGTH ? w.slice(0, STEM_LENGTH) : w;
}

/**
 * Lowercase (after NFKC, so full-width forms fold), drop apostrophes, then: Latin/digit words
 * minus stop words and single letters, plural-folded; each run of CJK characters as its
 * character unigrams and bigrams, minus function characters/words.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const normalised = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’‘`]/g, '');
  for (const match of normalised.matchAll(TOKEN_RE)) {
    const run = match[0];
    if (CJK_CHAR.test(run[0] ?? '')) {
      const chars = Array.from(run);
      for (let i = 0; i < chars.length; i += 1) {
        const uni = chars[i] as string;
        if (!CJK_STOP.has(uni))
          tokens.push({ text: uni, weight: CJK_UNIGRAM_WEIGHT, strong: false });
        const next = chars[i + 1];
        if (next !== undefined && !CJK_BREAK.has(uni) && !CJK_BREAK.has(next)) {
          const bi = uni + next;
          if (!CJK_STOP.has(bi)) tokens.push({ text: bi, weight: 1, strong: true });
        }
      }
    } else {
      if (ENGLISH_STOP.has(run)) continue;
      if (run.length === 1 && !/\d/.test(run)) continue;
      tokens.push({ text: stem(run), weight: 1, strong: true });
    }
  }
  return tokens;
}

/** Token → summed weight (1 + ln tf) · token weight, i.e. sublinear term frequency. */
export function termWeights(tokens: Token[]): Map<string, { weight: number; strong: boolean }> {
  const counts = new Map<string, { tf: number; weight: number; strong: boolean }>();
  for (const t of tokens) {
    const entry = counts.get(t.text);
    if (entry) entry.tf += 1;
    else counts.set(t.text, { tf: 1, weight: t.weight, strong: t.strong });
  }
  const out = new Map<string, { weight: number; strong: boolean }>();
  for (const [text, { tf, weight, strong }] of counts) {
    out.set(text, { weight: weight * (1 + Math.log(tf)), strong });
  }
  return out;
}

/** 32-bit FNV-1a over UTF-16 code units. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** murmur3's finaliser: decorrelates the sign bit from the bucket index. */
function mix32(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * The L2-normalised signed feature-hashing vector of `text` in `buckets` dimensions; all zeros
 * when the text has no tokens.
 */
export function lexicalVector(text: string, buckets: number): Float64Array {
  const v = new Float64Array(buckets);
  if (buckets <= 0) return v;
  for (const [token, { weight }] of termWeights(tokenize(text))) {
    const h = fnv1a(token);
    const sign = mix32(h) & 1 ? -1 : 1;
    const index = h % buckets;
    v[index] = (v[index] ?? 0) + sign * weight;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i += 1) v[i] = (v[i] ?? 0) / norm;
  return v;
}

/**
 * The offline embedding: sqrt(W)·e0 + sqrt(1 − W)·lex, with e0 = dimension 0 and the lexical
 * vector hashed into dimensions 1…n−1. Unit length; text without tokens gives exactly e0.
 */
export function embedText(
  text: string,
  dimensions: number,
  constantWeight: number = CONSTANT_WEIGHT,
): number[] {
  const out = new Array<number>(dimensions).fill(0);
  if (dimensions < 3) return out;
  // e0 is the constant direction; the last dimension is kept for text with no words.
  const lex = lexicalVector(text, dimensions - 2);
  let lexNorm = 0;
  for (const x of lex) lexNorm += x * x;
  if (lexNorm === 0) {
    // No words ("!!!", "the"): a direction of its own, orthogonal to every text with words, so
    // that nothing scores as similar to it. On e0 it scored 0.648 against every chunk.
    out[dimensions - 1] = 1;
    return out;
  }
  out[0] = Math.sqrt(constantWeight);
  const scale = Math.sqrt(1 - constantWeight);
  for (let i = 0; i < lex.length; i += 1) out[i + 1] = scale * (lex[i] ?? 0);
  return out;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  for (let i = n; i < a.length; i += 1) na += (a[i] ?? 0) ** 2;
  for (let i = n; i < b.length; i += 1) nb += (b[i] ?? 0) ** 2;
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** True when the text has more CJK characters than Latin letters. */
export function isMostlyCjk(text: string): boolean {
  let cjk = 0;
  let latin = 0;
  for (const ch of text) {
    if (CJK_CHAR.test(ch)) cjk += 1;
    else if (/\p{L}/u.test(ch)) latin += 1;
  }
  return cjk > latin;
}

export function containsCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}
