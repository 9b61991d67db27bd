import { signal } from '@preact/signals';
import type { Api } from '../api/services';
import { useUniqueId } from '../components/unique-id';
import { messages } from '../i18n/messages';

/** Which model answers, as chat's health tells it. */
export interface ModelInUse {
  name: string;
  /** The local stack's offline stand-in: its answers are extracts of the passages. */
  offline: boolean;
}

/**
 * Which model answers in this session, for the header and every answer: one value for the
 * page, as one user is logged in at a time (loadModelStatus sets it afresh for each session).
 */
export const modelInUse = signal<ModelInUse | undefined>(undefined);

/**
 * Asks chat's health once for the session. Health is the one place that states the model (and
 * proves it answers); a session asks it once, not per answer. Until it answers, or when it
 * fails, nothing is said: a failing health check does not mean the model is the stand-in.
 */
export function loadModelStatus(api: Api, abort: AbortSignal): void {
  modelInUse.value = undefined;
  api.chat.GetHealth({}, { signal: abort }).then(
    (health) => {
      if (abort.aborted) return;
      modelInUse.value = { name: health.model.name, offline: health.model.offline };
    },
    () => {},
  );
}

/** The README section that says how to connect a model; named, as the app serves no README. */
function ConnectHelp({ id }: { id: string }) {
  const m = messages().record;
  return (
    <p class="model-help" id={id}>
      {m.connectHelp} <cite>{m.readmeSection}</cite>
    </p>
  );
}

/**
 * In the header while the offline stand-in answers: what that means, and how to connect a
 * model (a disclosure, so that the header stays one line until asked). Where the bar is short
 * of room its words give way first (record.css): the lead is cut short, then on a phone only
 * the mark is seen (the words still read out, and shown once it is opened).
 */
export function ModelNotice() {
  const helpId = useUniqueId('model-help');
  const m = messages().record;
  if (!modelInUse.value?.offline) return null;
  return (
    <details class="model-notice" id="model-notice">
      <summary title={`${m.offlineLead} ${m.connectModel}`}>
        <span class="model-notice-mark" aria-hidden="true">
          ⚠
        </span>
        <span class="model-notice-text">
          <span class="model-notice-lead">{m.offlineLead}</span>{' '}
          <span class="model-notice-link">{m.connectModel}</span>
        </span>
      </summary>
      <ConnectHelp id={helpId} />
    </details>
  );
}

/** Under every answer the offline stand-in wrote (turn.tsx); "connect a model" opens the header's. */
export function OfflineNote() {
  const m = messages().record;
  if (!modelInUse.value?.offline) return null;
  return (
    <p class="offline-note">
      {m.offlineLead}{' '}
      <a
        href="#model-notice"
        onClick={(event) => {
          // The hash is the app's router: open the header's explanation without navigating.
          event.preventDefault();
          const notice = document.getElementById('model-notice');
          if (notice instanceof HTMLDetailsElement) {
            notice.open = true;
            notice.querySelector('summary')?.focus();
          }
        }}
      >
        {m.connectModel}
      </a>
    </p>
  );
}
