import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface ActionButtonProps {
  /** The visible words ("Delete"). */
  children: ComponentChildren;
  /** What it does to what ("Delete: casey"); it starts with the visible words. */
  label: string;
  danger?: boolean;
  /** The action: the button waits, disabled, until it has run. */
  run(): Promise<unknown>;
}

/** A small button in a row of a table that acts on that row's record. */
export function ActionButton({ children, label, danger, run }: ActionButtonProps) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class={danger ? 'button small danger-outline' : 'button small'}
      aria-label={label}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await run();
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
    </button>
  );
}
