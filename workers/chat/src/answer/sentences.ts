import { citationAt } from './citations.ts';

/** One sentence of an answer, as the support check reads it. */
export interface AnswerSentence {
  /** The sentence without Markdown markup and without its citation markers. */
  text: string;
  /**
   * The 1-based citations that cover it: its own markers, else those of the next sentence of
   * its paragraph or list item that has some (a marker at the end of a point covers the
   * point), else those of the previous one. Empty when its block cites nothing.
   */
  cited: number[];
  /** True when the sentence only says the answer is not in the sources ("I don't know"). */
  declines: boolean;
}

/**
 * "I don't know"-style sentences: they state no fact of the documents, so no passage can fail
 * to hold them. They count as supported; an "I don't know" that hides an answer the passages
 * have is a recall fault of the answer, not a grounding fault of the sentence.
 */
const DECLINES =
  /\bI (?:do not|don't|don’t) know\b|\b(?:context|documents?|files?|sources?|passages?) (?:do|does) not (?:contain|say|mention|state)|我不知道|无法回答|没有(?:找到)?相关(?:信息|内容|资料)|未(?:提及|找到|说明|涉及)/i;

/**
 * A list item's marker: `1.`, `1)`, `-`, `*`, `+`, `•` before a space (so `**bold**` and
 * `1.5亿元` are not items), or `1、`, `(1)`, `（1）`, `一、`.
 */
const LIST_MARKER =
  /^\s*(?:(?:\d{1,3}[.)]|[-*+•·])(?:\s+|$)|(?:\d{1,3}、|[(（]\d{1,3}[)）]|[一二三四五六七八九十]{1,3}、)\s*)/;
const HEADING = /^\s{0,3}#{1,6}(?:\s|$)/;
const FENCE = /^\s*(?:```|~~~)/;

/**
 * Splits an answer (Markdown, Chinese or English) into its sentences, in order. Blocks are
 * paragraphs and list items (a line without a marker continues the block above it); headings,
 * fenced code, bare list markers, a line that is wholly bold (a heading in all but name) and
 * lead-ins that end in a colon ("根据所提供的资料：", "The rules are:") are skipped: they frame
 * what follows and state nothing themselves. Sentences end at 。！？!? and at a full stop
 * followed by a space or the end (not inside 4.8 or a page marker); markers right after a
 * sentence's end belong to it.
 */
export function splitSentences(answer: string, markers?: readonly string[]): AnswerSentence[] {
  const sentences: AnswerSentence[] = [];
  for (const block of blocks(answer)) {
    const parts = splitBlock(block, markers);
    // A sentence without markers takes the next marked one's in its block, else the last's.
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.own.length > 0) continue;
      const next = parts.slice(i + 1).find((p) => p.own.length > 0);
      const previous = parts
        .slice(0, i)
        .reverse()
        .find((p) => p.own.length > 0);
      part.cited = [...((next ?? previous)?.own ?? [])];
    }
    for (const part of parts) {
      const text = plain(part.text);
      if (!/[\p{L}\p{N}]/u.test(text) || /[:：]$/.test(text)) continue;
      sentences.push({
        text,
        cited: part.own.length > 0 ? part.own : part.cited,
        declines: DECLINES.test(text),
      });
    }
  }
  return sentences;
}

/** Paragraphs and list items, markers stripped, their lines joined. */
function blocks(answer: string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  let fenced = false;
  const close = () => {
    if (current !== undefined) out.push(current);
    current = undefined;
  };
  for (const line of answer.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      close();
      continue;
    }
    if (fenced) continue;
    if (!line.trim() || HEADING.test(line) || /^\s*(?:[-*_]\s*){3,}$/.test(line)) {
      close();
      continue;
    }
    const quoted = line.replace(/^\s*(?:>\s?)+/, '');
    const item = LIST_MARKER.exec(quoted);
    if (item) {
      close();
      current = quoted.slice(item[0].length);
    } else if (current === undefined) {
      current = quoted;
    } else {
      current = joinLines(current, quoted.trim());
    }
    if (current !== undefined && /^\s*(?:\*\*|__)[^*_]+(?:\*\*|__)\s*[:：]?\s*$/.test(current)) {
      current = undefined; // a bold line on its own: a heading
    }
  }
  close();
  return out;
}

/** Chinese lines join without a space; others with one. */
function joinLines(before: string, after: string): string {
  const cjk = /[\p{Script=Han}，。；：、]$/u.test(before) && /^[\p{Script=Han}]/u.test(after);
  return cjk ? before + after : `${before} ${after}`;
}

interface Part {
  text: string;
  own: number[];
  cited: number[];
}

const ENDS = new Set(['。', '！', '？', '!', '?', '…']);
const CLOSERS = /[”’"'」』)）\]*_]/;

/** The sentences of one block, each with the citations written in or right after it. */
function splitBlock(block: string, markers?: readonly string[]): Part[] {
  const parts: Part[] = [];
  let text = '';
  let own: number[] = [];
  const add = (numbers: number[]) => {
    for (const n of numbers) if (!own.includes(n)) own.push(n);
  };
  let i = 0;
  while (i < block.length) {
    const citation = citationAt(block, i, markers);
    if (citation) {
      add(citation.numbers);
      i += citation.length;
      continue;
    }
    const ch = block[i]!;
    text += ch;
    i++;
    const ends = ENDS.has(ch) || (ch === '.' && (i >= block.length || /[\s[【]/.test(block[i]!)));
    if (!ends) continue;
    while (i < block.length && CLOSERS.test(block[i]!) && !citationAt(block, i, markers)) {
      text += block[i];
      i++;
    }
    // Markers after the end (and spaces between them) are still this sentence's.
    for (;;) {
      let j = i;
      while (j < block.length && /\s/.test(block[j]!)) j++;
      const after = citationAt(block, j, markers);
      if (!after) break;
      add(after.numbers);
      i = j + after.length;
      // "[2]." : a full stop after the markers closes the same sentence.
      while (i < block.length && (ENDS.has(block[i]!) || block[i] === '.')) i++;
    }
    parts.push({ text, own, cited: [] });
    text = '';
    own = [];
  }
  if (text.trim() || own.length > 0) {
    if (text.trim()) parts.push({ text, own, cited: [] });
    else if (parts.length > 0) {
      const last = parts[parts.length - 1]!;
      for (const n of own) if (!last.own.includes(n)) last.own.push(n);
    }
  }
  return parts;
}

/** The sentence as read: Markdown emphasis, code ticks, links and HTML tags removed. */
function plain(text: string): string {
  return (
    text
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<\/?[A-Za-z][^>]*>/g, '')
      .replace(/(\*\*|__|\*|`|~~)(?=\S)([^]*?\S)\1/g, '$2')
      .replace(/[*`]/g, '')
      .replace(/\s+/g, ' ')
      // Where a marker stood before the full stop: "2025 [1]." reads "2025."
      .replace(/\s+(?=[.,;:!?。，；：！？])/g, '')
      .trim()
  );
}
