import type { ChatSource } from '../api/services';

/** A source with its number: `[n]` in the answer is the n-th source as the stream told them. */
export interface NumberedSource {
  number: number;
  source: ChatSource;
}

/**
 * The sources as a reader wants them: those the answer cites, in the order it first cites
 * them, then what was retrieved but not cited. One row per passage (the same chunk twice, or
 * the same page given whole twice, is one row). Sources told before citations were (stored
 * turns) are all "cited": nothing is hidden that was shown before.
 */
export function orderSources(sources: readonly ChatSource[]): {
  cited: NumberedSource[];
  others: NumberedSource[];
} {
  const byPassage = new Map<string, NumberedSource>();
  sources.forEach((source, index) => {
    const key =
      source.chunk_id != null
        ? `chunk:${source.chunk_id}`
        : `page:${source.file_id}:${source.page}:${source.section ?? ''}`;
    const first = byPassage.get(key);
    if (!first) return void byPassage.set(key, { number: index + 1, source });
    // The same passage twice: the row keeps its first number and its earliest citation.
    const citation = earliest(first.source.citation, source.citation);
    if (citation !== first.source.citation) first.source = { ...first.source, citation };
  });
  const rows = [...byPassage.values()];
  if (rows.every(({ source }) => source.citation === undefined)) return { cited: rows, others: [] };
  const cited = rows
    .filter(({ source }) => source.citation != null)
    .sort((a, b) => a.source.citation! - b.source.citation!);
  const others = rows.filter(({ source }) => source.citation == null);
  return { cited, others };
}

function earliest(a: number | null | undefined, b: number | null | undefined) {
  if (a == null) return b;
  if (b == null) return a;
  return Math.min(a, b);
}
