import type { ComponentChildren } from 'preact';
import { useSignal } from '@preact/signals';
import { now, type Localized } from '../i18n/bind';
import { Notice, StatusRegion, say, type Said } from './notice';
import { useUniqueId } from './unique-id';

/**
 * A page of its own (`#/users`, `#/collection/…`): a section named by its heading. The heading
 * can take the focus, so that the app moves it there when the page opens.
 */
export function Page(props: {
  class: string;
  heading: ComponentChildren;
  children: ComponentChildren;
}) {
  const titleId = useUniqueId('page-title');
  return (
    <section class={`page ${props.class}`} aria-labelledby={titleId}>
      <h1 id={titleId} tabIndex={-1}>
        {props.heading}
      </h1>
      {props.children}
    </section>
  );
}

/** What a page says after each change: that it was made, or why not (one at a time). */
export function useOutcome() {
  const said = useSignal<Said | undefined>(undefined);
  const problem = useSignal<Localized | undefined>(undefined);
  return {
    said,
    problem,
    done(text: Localized) {
      problem.value = undefined;
      say(said, text);
    },
    failed(text: Localized) {
      said.value = undefined;
      problem.value = text;
    },
    clear() {
      said.value = undefined;
      problem.value = undefined;
    },
  };
}

export type Outcome = ReturnType<typeof useOutcome>;

/** The page's flash line (a status) and its problem (an alert), under its heading. */
export function OutcomeLines({ outcome }: { outcome: Outcome }) {
  const problem = outcome.problem.value;
  return (
    <>
      <StatusRegion said={outcome.said} class="flash" />
      <Notice tone="error" text={problem && now(problem)} />
    </>
  );
}

/** In place of a page the user may not see: why, and the way back. */
export function Denied(props: { message: ComponentChildren; back: ComponentChildren }) {
  return (
    <div class="denied">
      <p>{props.message}</p>
      <p>
        <a href="#/">{props.back}</a>
      </p>
    </div>
  );
}
