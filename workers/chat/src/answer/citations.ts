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

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
