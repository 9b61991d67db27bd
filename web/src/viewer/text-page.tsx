import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { messages } from '../i18n/messages';
import { cellText, findTables, type Span, type TextTable } from '../markdown/text-tables';

export interface TextPageProps {
  /** The section's text as it was indexed. */
  text: string;
  /** The passage's place in it (UTF-16 offsets, end exclusive), when one is shown here. */
  passage?: Span;
  onShown(marks: HTMLElement[]): void;
}

/**
 * A section of a document without pages (Word, HTML, Markdown, text) as the service read it,
 * the cited passage in `<mark>`. The text stays text, but for its Markdown pipe tables (the
 * form the service gives every table it reads), shown as tables; the passage is marked in
 * their cells by the same offsets, so a passage over table rows marks those rows.
 */
export function TextPage({ text, passage, onShown }: TextPageProps) {
  const page = useRef<HTMLDivElement>(null);
  const hooks = useRef(onShown);
  hooks.current = onShown;
  const range = passage && clamp(passage, text.length);
  const tables = useMemo(() => findTables(text), [text]);
  useLayoutEffect(
    () => hooks.current([...page.current!.querySelectorAll<HTMLElement>('mark.passage')]),
    [text, range?.start, range?.end],
  );

  const parts: ComponentChildren[] = [];
  let at = 0;
  for (const table of tables) {
    // The line breaks around a table are its box's edges: shown as well, they would add
    // blank lines above and below it.
    parts.push(marked(text, trimBreaks(text, at, table.start, at > 0, true), range));
    parts.push(<Table key={table.start} text={text} table={table} range={range} />);
    at = table.end;
  }
  parts.push(marked(text, trimBreaks(text, at, text.length, at > 0, false), range));
  return (
    <div class="text-page" ref={page}>
      {parts}
    </div>
  );
}

function Table({ text, table, range }: { text: string; table: TextTable; range?: Span }) {
  const cell = (span: Span, column: number, Cell: 'th' | 'td') => {
    const align = table.align[column];
    return (
      <Cell
        key={column}
        class={range && within(span, range) ? 'in-passage' : undefined}
        style={align ? { textAlign: align } : undefined}
      >
        {marked(text, span, range, cellText)}
      </Cell>
    );
  };
  // A wide table scrolls inside its own box, as in an answer; the box takes the focus so the
  // keyboard scrolls it too.
  return (
    <div class="table-scroll" role="region" tabIndex={0} aria-label={messages().chat.table}>
      <table>
        <thead>
          <tr>{table.header.map((span, column) => cell(span, column, 'th'))}</tr>
        </thead>
        <tbody>
          {table.rows.map((row, index) => (
            <tr key={index}>{row.map((span, column) => cell(span, column, 'td'))}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `span` of the text, the part inside `range` in `<mark>`; `show` makes the shown text. */
function marked(
  text: string,
  span: Span,
  range: Span | undefined,
  show: (source: string) => string = (source) => source,
): ComponentChildren {
  const from = range ? Math.min(Math.max(range.start, span.start), span.end) : span.end;
  const to = range ? Math.max(Math.min(range.end, span.end), from) : span.end;
  return [
    show(text.slice(span.start, from)),
    to > from && (
      <mark key="passage" class="passage">
        {show(text.slice(from, to))}
      </mark>
    ),
    show(text.slice(to, span.end)),
  ];
}

/** [from, to) less its line breaks next to a table: after one (at `from`), before one (at `to`). */
function trimBreaks(text: string, from: number, to: number, after: boolean, before: boolean): Span {
  let start = from;
  let end = to;
  if (after) while (start < end && text[start] === '\n') start++;
  if (before) while (end > start && text[end - 1] === '\n') end--;
  return { start, end };
}

/** A cell wholly inside the passage (an empty one: strictly inside it). */
function within(cell: Span, range: Span): boolean {
  if (cell.start === cell.end) return range.start < cell.start && cell.end < range.end;
  return range.start <= cell.start && cell.end <= range.end;
}

function clamp({ start, end }: Span, length: number) {
  const from = Math.max(0, Math.min(start, length));
  const to = Math.max(from, Math.min(end, length));
  return to > from ? { start: from, end: to } : undefined;
}

/**
 * Where a passage indexed before positions were stored stands in its section: its first
 * line found in the text, else nowhere.
 */
export function findPassage(text: string, passage: string): Span | undefined {
  const head = passage.trim().split('\n')[0]?.slice(0, 60) ?? '';
  if (head === '') return undefined;
  const start = text.indexOf(head);
  if (start < 0) return undefined;
  const end = text.indexOf(passage.trim().slice(-20), start);
  return { start, end: end >= 0 ? end + Math.min(20, passage.trim().length) : start + head.length };
}
