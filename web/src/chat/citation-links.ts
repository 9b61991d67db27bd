/**
 * The citations in an answer as links to their sources. The model cites a retrieved passage
 * by its number (`[2]`) and a page of a chosen file by its marker (`[policy.pdf p. 3]`,
 * `[notes.md § Eligibility]`). As an answer is rendered, each citation becomes an `<a>`
 * without an address; once the sources are known, {@link addressCitations} points each at
 * its source in the document viewer (a citation of nothing known stays text-like).
 */
import type { ChatSource } from '../api/services';
import { documentLink } from '../main/route';

/** A page marker's inside: `policy.pdf p. 3`, `notes.md § Eligibility`, `… (excerpts)`. */
const PAGE = String.raw`([^[\]\n]{1,200}?) (?:p\. (\d{1,6})|§ ([^[\]\n]{1,200}?))(?: \(excerpts\))?`;

const CITATION = new RegExp(String.raw`\[(?:(\d{1,3})|${PAGE})\]`, 'gu');

/**
 * Every numbered citation the service counts (its `NUMBERED`): `[2]`, `[1, 3]`, `[1-3]`, `【2】`;
 * not a 文号 written with square brackets (川办规[2025]6号). Only `[n]` becomes a link here.
 */
const NUMBERED = String.raw`[[【]\s*\d{1,3}(?:\s*(?:[,，、;；]|[-–~～])\s*\d{1,3})*\s*[\]】](?!\d+号)`;

/** Citations, with the spaces before them: "25 个工作日 [1]。" becomes "25 个工作日。". */
const CITED = new RegExp(String.raw`[ \t]*(?:${NUMBERED}|\[${PAGE}\])`, 'gu');

/**
 * An answer's text without its citations, for text that leaves the answer's sources behind
 * (an official answer names its passages apart: a "[2]" in it would refer to nothing).
 */
export const withoutCitations = (text: string): string => text.replace(CITED, '');

/** Wraps the citations in the text under `root` (not in code or links) in `<a class="citation">`. */
export function linkCitations(root: Node): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest('code, pre, a')
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    const data = text.data;
    const parts: (string | Node)[] = [];
    let at = 0;
    for (const match of data.matchAll(CITATION)) {
      const [whole, number, file, page, section] = match;
      const link = document.createElement('a');
      link.className = 'citation';
      link.textContent = whole;
      if (number !== undefined) link.dataset.cite = number;
      else {
        link.dataset.file = file!;
        if (page !== undefined) link.dataset.page = page;
        else link.dataset.section = section!;
      }
      parts.push(data.slice(at, match.index), link);
      at = match.index + whole.length;
    }
    if (parts.length === 0) continue;
    parts.push(data.slice(at));
    text.replaceWith(...parts.filter((part) => part !== ''));
  }
}

/** The source a citation names: its 0-based index in `sources`, or -1. */
export function citedSource(
  data: DOMStringMap,
  sources: readonly ChatSource[],
  mode: 'numbers' | 'markers',
): number {
  if (data.cite !== undefined) return mode === 'numbers' ? Number(data.cite) - 1 : -1;
  const name = data.file;
  return sources.findIndex(
    (source) =>
      markerName(source.file_name) === name &&
      (data.page !== undefined
        ? String(source.page) === data.page && !source.section
        : source.section?.replace(/\s+/g, ' ').trim() === data.section),
  );
}

/** A file's name as the page markers spell it (brackets become parentheses, one line). */
const markerName = (name: string) =>
  name.replace(/\s+/g, ' ').trim().replace(/\[/g, '(').replace(/\]/g, ')');

/**
 * Points every citation under `root` at its source in the viewer, with a description that says
 * which source it is; one that names no source loses its address.
 */
export function addressCitations(
  root: ParentNode,
  sources: readonly ChatSource[],
  mode: 'numbers' | 'markers',
  label: (number: number, source: ChatSource) => string,
): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a.citation')) {
    const index = citedSource(link.dataset, sources, mode);
    const source = sources[index];
    if (!source) {
      link.removeAttribute('href');
      link.removeAttribute('title');
      continue;
    }
    link.href = documentLink(source.file_id, source.page, source.chunk_id);
    // A description, not a name: the link is called what it shows (`[2]`), as a reader sees it.
    link.title = label(index + 1, source);
  }
}
