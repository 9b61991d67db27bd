/** The longest wait between two looks at a file an upload is waiting on. */
export const POLL_MS = 200;
/** The first wait: a small document is often ready within a few hundred milliseconds. */
export const FIRST_POLL_MS = 25;

/**
 * How long an upload waits before its `attempt`-th look (0-based) at the file's row. Polling
 * every POLL_MS from the start held each answer back by up to that long after the file was
 * ready (half of a 2-page PDF's upload, the LangChain.js baseline in docs/decisions/). The waits start short and
 * grow by half each time to POLL_MS, so a long ingest costs no more queries than before
 * (7 looks in the first 0.7 s, then 5 a second).
 */
export function pollDelay(attempt: number): number {
  return Math.min(POLL_MS, Math.round(FIRST_POLL_MS * 1.5 ** attempt));
}
