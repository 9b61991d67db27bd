import { useLayoutEffect, useRef } from 'preact/hooks';

export interface TextPageProps {
  /** The section's text as it was indexed. */
  text: string;
  /** The passage's place in it (UTF-16 offsets, end exclusive), when one is shown here. */
  passage?: { start: number; end: number };
  onShown(marks: HTMLElement[]): void;
}

/**
 * A section of a document without pages (Word, HTML, Markdown, text) as the service read it,
 * the cited passage in `<mark>`.
 */
export function TextPage({ text, passage, onShown }: TextPageProps) {
  const mark = useRef<HTMLElement>(null);
  const hooks = useRef(onShown);
  hooks.current = onShown;
  const range = passage && clamp(passage, text.length);
  useLayoutEffect(() => hooks.current(mark.current ? [mark.current] : []), [text, range?.start]);
  if (!range) return <div class="text-page">{text}</div>;
  return (
    <div class="text-page">
      {text.slice(0, range.start)}
      <mark class="passage" ref={mark}>
        {text.slice(range.start, range.end)}
      </mark>
      {text.slice(range.end)}
    </div>
  );
}

function clamp({ start, end }: { start: number; end: number }, length: number) {
  const from = Math.max(0, Math.min(start, length));
  const to = Math.max(from, Math.min(end, length));
  return to > from ? { start: from, end: to } : undefined;
}

/**
 * Where a passage indexed before positions were stored stands in its section: its first
 * line found in the text, else nowhere.
 */
export function findPassage(
  text: string,
  passage: string,
): { start: number; end: number } | undefined {
  const head = passage.trim().split('\n')[0]?.slice(0, 60) ?? '';
  if (head === '') return undefined;
  const start = text.indexOf(head);
  if (start < 0) return undefined;
  const end = text.indexOf(passage.trim().slice(-20), start);
  return { start, end: end >= 0 ? end + Math.min(20, passage.trim().length) : start + head.length };
}
