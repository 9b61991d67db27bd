/**
 * Which page markers ("[policy.pdf p. 3]") an answer cites, as indexes into `markers`, in the
 * order the answer first cites them. A marker counts with or without the " (excerpts)" the
 * prompt adds to partial pages; "[a.pdf p. 3]" never counts as a citation of "[a.pdf p. 30]".
 */
export function citedPages(answer: string, markers: readonly string[]): number[] {
  const found: { index: number; at: number }[] = [];
  markers.forEach((marker, index) => {
    const open = escape(marker.slice(0, -1));
    const at = answer.search(new RegExp(`${open}(?:\\]| \\()`));
    if (at >= 0) found.push({ index, at });
  });
  return found.sort((a, b) => a.at - b.at || a.index - b.index).map((f) => f.index);
}

/**
 * The numbered citations of a retrieval answer: `[2]`, `[2][3]`, `[1, 3]`, `[1，3]`, `[1-3]`,
 * `【2】`. A bracketed number followed by digits and 号 is a document number written with
 * square brackets (川办规[2025]6号), not a citation. Sticky: matches at `lastIndex` only.
 */
const NUMBERED = /[[【]\s*(\d{1,3}(?:\s*(?:[,，、;；]|[-–~～])\s*\d{1,3})*)\s*[\]】](?!\d+号)/y;

/** A citation starting at `at` in `text`: its length and the 1-based numbers it names. */
export interface CitationAt {
  length: number;
  /** 1-based: the n of `[n]` (retrieval) or the marker's position in the list (pages). */
  numbers: number[];
}

/**
 * Reads the citation that starts at `at`, if any: numbered citations, or with `markers`
 * (files mode) the page markers, each counted as its 1-based position in `markers`.
 */
export function citationAt(
  text: string,
  at: number,
  markers?: readonly string[],
): CitationAt | undefined {
  const open = text[at];
  if (open !== '[' && open !== '【') return undefined;
  if (markers) {
    for (const [i, marker] of markers.entries()) {
      const stem = marker.slice(0, -1);
      if (!text.startsWith(stem, at)) continue;
      const after = at + stem.length;
      if (text[after] === ']') return { length: stem.length + 1, numbers: [i + 1] };
      if (text.startsWith(' (excerpts)]', after)) {
        return { length: stem.length + 12, numbers: [i + 1] };
      }
    }
    return undefined;
  }
  NUMBERED.lastIndex = at;
  const match = NUMBERED.exec(text);
  if (!match) return undefined;
  return { length: match[0].length, numbers: numbersOf(match[1]!) };
}

/** "1, 3" → [1, 3]; "1-3" → [1, 2, 3] (a range of at most 20, else its two ends). */
function numbersOf(list: string): number[] {
  const numbers: number[] = [];
  for (const part of list.split(/\s*[,，、;；]\s*/)) {
    const [from, to] = part.split(/\s*[-–~～]\s*/).map(Number);
    if (to === undefined || to < from! || to - from! > 20) {
      numbers.push(from!);
      if (to !== undefined) numbers.push(to);
    } else {
      for (let n = from!; n <= to; n++) numbers.push(n);
    }
  }
  return numbers;
}

/**
 * The sources a retrieval answer cites, as 0-based indexes below `count`, in the order of
 * first citation. Numbers naming no source (`[12]` of 10) are left out here; the sentence
 * check still sees them, and finds nothing behind them.
 */
export function citedNumbers(answer: string, count: number): number[] {
  const order: number[] = [];
  for (let at = answer.search(/[[【]/); at >= 0;) {
    const citation = citationAt(answer, at);
    for (const n of citation?.numbers ?? []) {
      if (n >= 1 && n <= count && !order.includes(n - 1)) order.push(n - 1);
    }
    const next = answer.slice(at + 1).search(/[[【]/);
    at = next < 0 ? -1 : at + 1 + next;
  }
  return order;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
