import { useSignalEffect } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { currentLocale } from '../i18n/locale';
import { createMarkdownView, type MarkdownView } from './markdown-view';

/**
 * Markdown shown as HTML: through marked and DOMPurify, behind the page's one Trusted Types
 * policy (./trusted-html.ts), never as a markup string handed to Preact. The element is
 * Preact's; what is inside it is the Markdown view's alone.
 */
export function Markdown({ source, class: className }: { source: string; class: string }) {
  const element = useRef<HTMLDivElement>(null);
  const view = useRef<MarkdownView | undefined>(undefined);
  useLayoutEffect(() => {
    view.current ??= createMarkdownView(element.current!);
    view.current.update(source);
  }, [source]);
  useSignalEffect(() => {
    currentLocale();
    view.current?.relabel();
  });
  return <div class={className} ref={element} />;
}
