/**
 * Asks again and again while there is something to ask about: soon after something changed,
 * less often while nothing does (a step waiting out the model's outage is retried for
 * minutes), never while the page is hidden, and at once when it is shown again.
 */
export interface Poller {
  /** There may be something to ask about: asks soon, unless a round is already planned. */
  wake(): void;
}

export interface PollerOptions {
  /** Whether there is anything to ask about now. */
  wanted(): boolean;
  /**
   * One round; resolves whether anything changed, or `'stop'` to stop until the next wake
   * (the session was refused). A rejection counts as "nothing changed".
   */
  round(): Promise<boolean | 'stop'>;
  signal: AbortSignal;
  /** First and shortest pause, ms. */
  fastMs?: number;
  /** Longest pause, ms, reached by doubling while nothing changes. */
  slowMs?: number;
}

export function createPoller(options: PollerOptions): Poller {
  const fastMs = options.fastMs ?? 1_000;
  const slowMs = options.slowMs ?? 8_000;
  let pause = fastMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  /** Woken during a round: the next pause is the short one, whatever the round found. */
  let woken = false;

  function plan(ms: number): void {
    if (timer !== undefined || running || options.signal.aborted || !options.wanted()) return;
    timer = setTimeout(() => {
      timer = undefined;
      void tick();
    }, ms);
  }

  async function tick(): Promise<void> {
    if (document.hidden || !options.wanted()) return; // visibilitychange wakes it again
    running = true;
    let outcome: boolean | 'stop';
    try {
      outcome = await options.round();
    } catch {
      outcome = false;
    } finally {
      running = false;
    }
    if (outcome === 'stop') return;
    pause = outcome || woken ? fastMs : Math.min(slowMs, pause * 2);
    woken = false;
    plan(pause);
  }

  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.hidden || running) return;
      clearTimeout(timer);
      timer = undefined;
      pause = fastMs;
      plan(0);
    },
    { signal: options.signal },
  );
  options.signal.addEventListener('abort', () => clearTimeout(timer));

  return {
    wake() {
      woken = running;
      pause = fastMs;
      clearTimeout(timer);
      timer = undefined;
      plan(fastMs);
    },
  };
}
