/**
 * The offline model's "generation": an honest extractive answer built only from the numbered
 * context items in the prompt. It finds the question, splits the context into sentences,
 * scores them by lexical overlap with the question (the embeddings' tokenizer) and answers with
 * the best one to three sentences as numbered points citing their item numbers, or says it
 * does not know when nothing overlaps.
 */
import { containsCjk, isMostlyCjk, termWeights, tokenize } from './lexical.ts';

export const I_DONT_KNOW_EN = "I don't know based on the provided context.";
export const I_DONT_KNOW_ZH = '根据所提供的资料，我不知道。';

/** Longest sentence quoted as is; longer ones are cut at a word boundary and marked with "…". */
const MAX_SENTENCE_CHARS = 400;
/** At most this many points in an answer. */
const MAX_POINTS = 3;
/** A further point must score at least this fraction of the best one. */
const FOLLOWER_RATIO = 0.4;

export interface ContextItem {
  /** The number the prompt gave the item ([3] or 3.), or its paragraph position. */
  n: number;
  text: string;
  /** How the answer cites it when not by number: a page marker's text ("policy.pdf p. 3"). */
  cite?: string;
}

export interface ParsedPrompt {
  question: string;
  items: ContextItem[];
}

export interface ChatMessageLike {
  role?: unknown;
  content?: unknown;
}

/** Text of a message's content: a string, or the text parts of a content-part array. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        if (typeof part === 'string') return part;
        if (part && typeof part === 'object' && 'text' in part) {
          const text = (part as { text: unknown }).text;
          return typeof text === 'string' ? text : '';
        }
        return '';
      })
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

const QUESTION_MARKER =
  /^[ \t>#*_-]*(?:\*\*)?(?:user question|question|query|用户问题|问题|問題|提问)(?:\*\*)?[ \t]*[:：](?:\*\*)?[ \t]*/gim;
const ANSWER_MARKER = /^[ \t>#*_-]*(?:answer|回答|答案|答)[ \t]*[:：][ \t]*$/i;

/** Splits a prompt into the text before the question and the question itself. */
export function splitQuestion(prompt: string): { before: string; question: string } {
  const markers = [...prompt.matchAll(QUESTION_MARKER)];
  const last = markers.at(-1);
  if (last) {
    const before = prompt.slice(0, last.index);
    const rest = prompt.slice(last.index + last[0].length);
    // The question is the first paragraph after the marker (on its line or the next ones).
    const paragraphs = rest
      .split(/\n[ \t]*\n/)
      .map((p) => p.trim())
      .filter(Boolean);
    const question = (paragraphs[0] ?? '')
      .split('\n')
      .filter((line) => !ANSWER_MARKER.test(line))
      .join('\n')
      .trim();
    return { before, question };
  }
  const trimmed = prompt.trimEnd();
  const cut = trimmed.search(/\n[ \t]*\n(?![\s\S]*\n[ \t]*\n)/);
  if (cut < 0) return { before: '', question: trimmed.trim() };
  return { before: trimmed.slice(0, cut), question: trimmed.slice(cut).trim() };
}

const CONTEXT_TAG =
  /<([a-z_-]*(?:context|documents?|sources?|knowledge|passages?)[a-z_-]*)\b[^>]*>([\s\S]*?)<\/\1\s*>/i;
const CONTEXT_HEADER =
  /^[ \t#*>]*(?:retrieved context|context|contexts|documents|sources|knowledge|references?|passages|上下文|参考资料|资料|已知信息|背景信息|检索结果|知识库内容)[^\n:：]{0,40}[:：](?:\*\*)?/im;
const DELIMITER_LINE = /^[ \t]*(?:(`|"|-|=|\*|#|~|_)\1{2,}[^\n]*|-{3,}[^\n]*-{3,})[ \t]*$/gm;

/** The part of the pre-question text that holds the context items. */
function contextRegion(text: string): string {
  const tagged = CONTEXT_TAG.exec(text);
  if (tagged?.[2] !== undefined) return tagged[2];
  const header = CONTEXT_HEADER.exec(text);
  if (header) return text.slice(header.index + header[0].length);
  const delimiters = [...text.matchAll(DELIMITER_LINE)];
  const first = delimiters[0];
  const last = delimiters.at(-1);
  if (first && last && first !== last) {
    return text.slice(first.index + first[0].length, last.index);
  }
  return text;
}

const BRACKET_ITEM = /^[ \t>*-]*\[(\d{1,4})\][ \t]*/gm;
const NUMBER_ITEM = /^[ \t>*]*(\d{1,3})[.)、．:：](?!\d)[ \t]*/gm;
const METADATA_WORDS =
  /(?:file|page|source|doc|document|similarity|score|relevance|chunk|id|url|文件|页|来源|相似度|文档)/i;
const LEADING_GROUP =
  /^[ \t]*(\([^()\n]{0,200}\)|（[^（）\n]{0,200}）|\[[^[\]\n]{0,200}\]|【[^【】\n]{0,200}】)[ \t]*[:：-]?[ \t]*/;
const METADATA_LINE =
  /^[ \t]*(?:file|source|document|page|similarity|score|文件|来源|文档|页码|相似度)[ \t]*[:：][^\n]*$/i;

/** Joins an item's lines: no space between CJK characters, hyphenated words mended. */
export function joinLines(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let out = '';
  for (const line of lines) {
    if (!out) out = line;
    else if (/[\p{L}]-$/u.test(out) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else if (containsCjk(out.at(-1) ?? '') && containsCjk(line[0] ?? '')) out += line;
    else out += ` ${line}`;
  }
  return out;
}

function cleanItem(raw: string): string {
  let text = raw;
  // Drop metadata lines ("file: x.pdf", "similarity: 0.8") when the item has other lines too.
  const lines = text.split('\n');
  const kept = lines.filter((l) => !METADATA_LINE.test(l));
  if (kept.some((l) => l.trim())) text = kept.join('\n');
  // Drop leading metadata groups: "(file: x.pdf, page 3)", "[doc 2]", "【来源：…】".
  for (let i = 0; i < 3; i += 1) {
    const m = LEADING_GROUP.exec(text);
    if (!m?.[1] || !(METADATA_WORDS.test(m[1]) || /[:：]/.test(m[1]))) break;
    text = text.slice(m[0].length);
  }
  return joinLines(text);
}

function itemsByMarker(region: string, marker: RegExp): ContextItem[] {
  const matches = [...region.matchAll(marker)];
  return matches
    .map((m, i) => {
      const start = m.index + m[0].length;
      const end = matches[i + 1]?.index ?? region.length;
      return { n: Number(m[1]), text: cleanItem(region.slice(start, end)) };
    })
    .filter((item) => item.text.length > 0);
}

/**
 * A page marker on a line of its own, as chat puts a chosen file's pages into a prompt:
 * "[policy.pdf p. 3]", "[notes.md § Eligibility]", either with " (excerpts)".
 */
const PAGE_ITEM = /^[ \t]*\[([^[\]\n]+? (?:p\. \d+|§ [^[\]\n]+?))(?: \(excerpts\))?\][ \t]*$/gm;

function itemsByPageMarker(region: string): ContextItem[] {
  const matches = [...region.matchAll(PAGE_ITEM)];
  return matches
    .map((m, i) => {
      const start = m.index + m[0].length;
      const end = matches[i + 1]?.index ?? region.length;
      return { n: i + 1, cite: m[1], text: cleanItem(region.slice(start, end)) };
    })
    .filter((item) => item.text.length > 0);
}

/**
 * Items of a context text: page markers, else [n] markers, else "n." markers, else its
 * paragraphs.
 */
export function contextItems(text: string): ContextItem[] {
  const region = contextRegion(text);
  for (const source of region === text ? [text] : [region, text]) {
    const paged = itemsByPageMarker(source);
    if (paged.length) return paged;
    const bracketed = itemsByMarker(source, BRACKET_ITEM);
    if (bracketed.length) return bracketed;
    const numbered = itemsByMarker(source, NUMBER_ITEM);
    if (numbered.length) return numbered;
  }
  return region
    .split(/\n[ \t]*\n/)
    .map((p) => cleanItem(p))
    .filter(Boolean)
    .map((p, i) => ({ n: i + 1, text: p }));
}

/** Finds the question and context items in a chat request's messages. */
export function parsePrompt(messages: ChatMessageLike[]): ParsedPrompt {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const prompt = messageText(lastUser?.content);
  const { before, question } = splitQuestion(prompt);
  let items = before.trim() ? contextItems(before) : [];
  if (!items.length) {
    // Context may sit in the system message or earlier turns instead.
    const earlier = messages
      .filter((m) => m !== lastUser)
      .map((m) => messageText(m.content))
      .join('\n\n');
    if (earlier.trim()) items = contextItems(earlier);
  }
  return { question, items };
}

const ABBREVIATIONS = new Set(
  'mr mrs ms dr prof inc ltd co corp vs etc e.g i.e eg ie no fig st jr sr approx dept est art sec vol pp p'.split(
    ' ',
  ),
);

/** Splits text into sentences after .!? (followed by space or end) and 。！？；. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  const closers = /["'”’」』）)\]]/;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    let boundary = false;
    if ('。！？；'.includes(ch)) boundary = true;
    else if ('!?'.includes(ch))
      boundary = i + 1 >= text.length || /\s|["'”’)]/.test(text[i + 1] ?? '');
    else if (ch === '.') {
      const next = text[i + 1];
      if (next === undefined || /\s/.test(next) || closers.test(next)) {
        const word = /(\S+)$/.exec(text.slice(start, i))?.[1]?.toLowerCase() ?? '';
        const bare = word.replace(/^["'“‘(]+/, '');
        boundary = !(
          ABBREVIATIONS.has(bare) ||
          /^(?:\p{L}\.)*\p{L}$/u.test(bare) ||
          /^\d+$/.test(bare)
        );
      }
    }
    if (!boundary) continue;
    let end = i + 1;
    while (
      end < text.length &&
      (closers.test(text[end] ?? '') || '。！？；!?.'.includes(text[end] ?? ''))
    )
      end += 1;
    const sentence = text.slice(start, end).trim();
    if (sentence) sentences.push(sentence);
    start = end;
    i = end - 1;
  }
  const tail = text.slice(start).trim();
  if (tail) sentences.push(tail);
  return sentences;
}

function shorten(sentence: string): string {
  if (sentence.length <= MAX_SENTENCE_CHARS) return sentence;
  const cut = sentence.slice(0, MAX_SENTENCE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_SENTENCE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface ScoredSentence {
  item: number;
  /** The citation's text: the item's number, or its page marker. */
  cite: string;
  sentence: string;
  score: number;
}

/** Sentences of the items with at least one strong token (word, CJK bigram) in common. */
export function rankSentences(question: string, items: ContextItem[]): ScoredSentence[] {
  const q = termWeights(tokenize(question));
  let total = 0;
  for (const { weight } of q.values()) total += weight;
  if (total === 0) return [];
  const ranked: Array<ScoredSentence & { order: number }> = [];
  let order = 0;
  for (const item of items) {
    for (const sentence of splitSentences(item.text)) {
      order += 1;
      const tokens = tokenize(sentence);
      const present = new Set(tokens.map((t) => t.text));
      let matched = 0;
      let strong = false;
      for (const [token, info] of q) {
        if (!present.has(token)) continue;
        matched += info.weight;
        if (info.strong) strong = true;
      }
      if (!strong) continue;
      // Coverage of the question, with a gentle penalty for very long sentences.
      const score = matched / total / (1 + 0.25 * Math.log1p(present.size / 40));
      ranked.push({ item: item.n, cite: item.cite ?? String(item.n), sentence, score, order });
    }
  }
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.map(({ item, cite, sentence, score }) => ({ item, cite, sentence, score }));
}

/** Chinese answers start with this when the prompt asks for Chinese (they quote the sources). */
export const CHINESE_LEAD_IN = '根据所提供的资料：';

const ASKS_CHINESE = /answer in chinese|用中文回答|请用中文/i;
const ASKS_ENGLISH = /answer in english|用英文回答/i;

/**
 * The language an answer is asked in: an explicit instruction in the system message, else in
 * the other messages (the first found), else none. The system message goes first because the
 * user message carries documents, which may say anything.
 */
export function askedLanguage(messages: ChatMessageLike[]): 'zh' | 'en' | undefined {
  const ordered = [
    ...messages.filter((m) => m.role === 'system'),
    ...messages.filter((m) => m.role !== 'system'),
  ];
  for (const m of ordered) {
    const text = messageText(m.content);
    const zh = text.search(ASKS_CHINESE);
    const en = text.search(ASKS_ENGLISH);
    if (zh >= 0 || en >= 0) return en < 0 || (zh >= 0 && zh < en) ? 'zh' : 'en';
  }
  return undefined;
}

/**
 * The whole answer text: numbered points citing items, or "I don't know". Asked for Chinese
 * (an "Answer in Chinese" instruction), it is deterministically Chinese: a Chinese lead-in
 * before the quoted points, the Chinese "I don't know"; asked for English, the English one.
 * Without an instruction, the question's script decides, as before.
 */
export function extractiveAnswer(messages: ChatMessageLike[]): string {
  const { question, items } = parsePrompt(messages);
  const asked = askedLanguage(messages);
  const chinese = asked ? asked === 'zh' : isMostlyCjk(question);
  const lead = asked === 'zh' ? `${CHINESE_LEAD_IN}\n` : '';
  if (SUMMARY.test(question) && items.length > 0) return lead + summaryPoints(items);
  const ranked = rankSentences(question, items);
  const best = ranked[0];
  if (!best) return chinese ? I_DONT_KNOW_ZH : I_DONT_KNOW_EN;
  const chosen: ScoredSentence[] = [];
  const seen = new Set<string>();
  for (const s of ranked) {
    if (chosen.length >= MAX_POINTS || s.score < best.score * FOLLOWER_RATIO) break;
    const key = s.sentence.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    chosen.push(s);
  }
  const points = chosen.map((s, i) => `${i + 1}. ${shorten(s.sentence)} [${s.cite}]`).join('\n');
  return lead + points;
}

/** A question asking for a summary or the main points rather than a fact. */
const SUMMARY =
  /summar|overview|main (?:points|measures)|key points|总结|概括|概述|摘要|主要措施|要点/i;
/** At most this many points in a summary. */
const MAX_SUMMARY_POINTS = 5;

/** A summary: the first sentence of each item (the first items), each citing its item. */
function summaryPoints(items: ContextItem[]): string {
  return items
    .map((item) => ({ item, sentence: splitSentences(item.text)[0] }))
    .filter((p): p is { item: ContextItem; sentence: string } => Boolean(p.sentence))
    .slice(0, MAX_SUMMARY_POINTS)
    .map(
      ({ item, sentence }, i) => `${i + 1}. ${shorten(sentence)} [${item.cite ?? String(item.n)}]`,
    )
    .join('\n');
}

const PIECE_RE =
  /(?:[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{1,2}|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)\s*|\s+/gu;

/** Streaming pieces: one word (with its trailing space) or one or two CJK characters each. */
export function streamPieces(text: string): string[] {
  return text.match(PIECE_RE) ?? [];
}

/** The "~4 characters per token" estimate used for usage and max_tokens. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
