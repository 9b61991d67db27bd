import type { ChatSource } from '../api/services';

/** A source with its number as the reader sees it (see orderSources). */
export interface NumberedSource {
  number: number;
  source: ChatSource;
}

export interface OrderedSources {
  cited: NumberedSource[];
  others: NumberedSource[];
  /** The number shown for the answer's `[n]` (n as the service numbered its sources). */
  shownAs(n: number): number;
}

/**
 * The sources as a reader wants them: those the answer cites, in the order it first cites
 * them, then what was retrieved but not cited. One row per passage (the same chunk twice, or
 * the same page given whole twice, is one row). Numbered as read: the first source cited is
 * [1], the next [2], and so on, then the others; the answer's `[n]` (the n-th source as the
 * service told them) is shown with its row's number, so an answer citing the 1st, 2nd and 6th
 * sources reads [1][2][3]. Sources told before citations were (stored turns) are all "cited",
 * in the service's order and numbers: nothing is hidden or renumbered that was shown before.
 */
export function orderSources(sources: readonly ChatSource[]): OrderedSources {
  const byPassage = new Map<string, NumberedSource>();
  /** Each source's row (a repeated passage shares its first one's). */
  const rowOf: NumberedSource[] = [];
  sources.forEach((source, index) => {
    const key =
      source.chunk_id != null
        ? `chunk:${source.chunk_id}`
        : `page:${source.file_id}:${source.page}:${source.section ?? ''}`;
    const first = byPassage.get(key);
    if (!first) {
      const row = { number: index + 1, source };
      byPassage.set(key, row);
      rowOf.push(row);
      return;
    }
    rowOf.push(first);
    // The same passage twice: the row keeps its earliest citation.
    const citation = earliest(first.source.citation, source.citation);
    if (citation !== first.source.citation) first.source = { ...first.source, citation };
  });
  const rows = [...byPassage.values()];
  const shownAs = (n: number) => rowOf[n - 1]?.number ?? n;
  if (rows.every(({ source }) => source.citation === undefined)) {
    return { cited: rows, others: [], shownAs };
  }
  const cited = rows
    .filter(({ source }) => source.citation != null)
    .sort((a, b) => a.source.citation! - b.source.citation!);
  const others = rows.filter(({ source }) => source.citation == null);
  [...cited, ...others].forEach((row, i) => (row.number = i + 1));
  return { cited, others, shownAs };
}

function earliest(a: number | null | undefined, b: number | null | undefined) {
  if (a == null) return b;
  if (b == null) return a;
  return Math.min(a, b);
}
