import { Fragment, type ComponentChildren } from 'preact';
import type { Signal } from '@preact/signals';
import { now, type Localized } from '../i18n/bind';

export type Tone = 'info' | 'warning' | 'error';

/**
 * A notice that interrupts (`role="alert"`): why something failed, or what happened to the
 * session. It stays in the page, hidden while it has nothing to say, so that assistive
 * technology knows the region before it speaks.
 */
export function Notice(props: { text: ComponentChildren; tone?: Tone; class?: string }) {
  const shown = props.text !== undefined && props.text !== null && props.text !== false;
  const classes = ['notice', props.tone ?? 'error', props.class].filter(Boolean).join(' ');
  return (
    <p class={classes} role="alert" hidden={!shown}>
      {shown && props.text}
    </p>
  );
}

/** Something said once to screen readers; `count` tells the same words said again apart. */
export interface Said {
  text: Localized;
  count: number;
}

/** Says `text` in `said`'s status region (again, when the same words are said twice). */
export function say(said: Signal<Said | undefined>, text: Localized): void {
  said.value = { text, count: (said.peek()?.count ?? 0) + 1 };
}

/**
 * A polite live region (`role="status"`): what happened, read out once, without moving the
 * focus. Visually hidden unless a class says otherwise (a page's flash line).
 */
export function StatusRegion(props: { said: Signal<Said | undefined>; class?: string }) {
  const said = props.said.value;
  return (
    <p class={props.class ?? 'visually-hidden'} role="status">
      {said && <Fragment key={said.count}>{now(said.text)}</Fragment>}
    </p>
  );
}
