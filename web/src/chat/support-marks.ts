/**
 * Marks sentences in a rendered answer. The answer's HTML is the Markdown view's (sanitised,
 * behind the page's one Trusted Types policy); this only splits its text nodes and wraps the
 * pieces in `<mark>` elements made with the DOM, never with markup. A sentence is found by its
 * characters without white space (the service strips Markdown and citation markers from the
 * text it checks, so citation links are skipped here too); one not found is left unmarked: the
 * note under the answer still names it.
 */
const MARK = 'unsupported-sentence';

/** Marks each of `sentences` in `root`, with `label` read after it by screen readers. */
export function markSentences(root: Element, sentences: readonly string[], label: string): void {
  clearMarks(root);
  for (const sentence of sentences) markOne(root, sentence, label);
}

/** Takes earlier marks away, joining the text they split. */
export function clearMarks(root: Element): void {
  for (const hidden of root.querySelectorAll(`.${MARK}-label`)) hidden.remove();
  for (const mark of root.querySelectorAll(`mark.${MARK}`)) {
    const parent = mark.parentNode!;
    mark.replaceWith(...mark.childNodes);
    parent.normalize();
  }
}

interface Spot {
  node: Text;
  offset: number;
}

function markOne(root: Element, sentence: string, label: string): void {
  const wanted = [...sentence.replace(/\s+/g, '')].join('');
  if (!wanted) return;
  const spots: Spot[] = [];
  let flat = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest('a.citation, code, pre, .visually-hidden')
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const data = node.data;
    for (let i = 0; i < data.length; i++) {
      if (/\s/.test(data[i]!)) continue;
      flat += data[i];
      spots.push({ node, offset: i });
    }
  }
  const at = flat.indexOf(wanted);
  if (at < 0) return;
  const first = spots[at]!;
  const last = spots[at + wanted.length - 1]!;
  // Wrap the stretch node by node: a sentence may cross emphasis and other inline elements.
  const nodes: Text[] = [];
  for (let i = at; i < at + wanted.length; i++) {
    const node = spots[i]!.node;
    if (nodes.at(-1) !== node) nodes.push(node);
  }
  let lastMark: HTMLElement | undefined;
  for (const node of nodes) {
    const from = node === first.node ? first.offset : 0;
    const to = node === last.node ? last.offset + 1 : node.data.length;
    let piece = node;
    if (from > 0) piece = piece.splitText(from);
    if (to - from < piece.data.length) piece.splitText(to - from);
    const mark = document.createElement('mark');
    mark.className = MARK;
    piece.replaceWith(mark);
    mark.append(piece);
    lastMark = mark;
  }
  if (lastMark) {
    const hidden = document.createElement('span');
    hidden.className = `visually-hidden ${MARK}-label`;
    hidden.textContent = ` ${label}`;
    lastMark.after(hidden);
  }
}
