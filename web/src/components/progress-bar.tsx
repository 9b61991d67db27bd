export interface ProgressBarProps {
  /** What is under way ("Uploading a.pdf"). */
  label: string;
  /** How far, 0…1; undefined when that is not known (the bar then shows that it is busy). */
  fraction: number | undefined;
  /** The same in words ("Indexing: 40 of 120 chunks"), read out as the bar's value. */
  text: string;
  hidden?: boolean;
}

/**
 * A progress bar updated in place: it keeps its node, so that assistive technology sees one
 * bar whose value changes, not a new bar every second. It is not a live region: its value is
 * read when the user asks for it; what is worth announcing (a file is ready, a file failed)
 * goes to a status region instead, once.
 *
 * An ARIA progressbar rather than `<progress>`: its value text carries the phase and the
 * counts, where `<progress>` would only say a percentage.
 */
export function ProgressBar({ label, fraction, text, hidden }: ProgressBarProps) {
  const known = fraction !== undefined;
  const percent = known ? Math.round(Math.min(1, Math.max(0, fraction)) * 100) : undefined;
  return (
    <div
      class={known ? 'progress' : 'progress indeterminate'}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={text}
      aria-label={label}
      data-value={known ? String(fraction) : undefined}
      hidden={hidden}
    >
      <span class="progress-fill" style={percent === undefined ? {} : { width: `${percent}%` }} />
    </div>
  );
}
