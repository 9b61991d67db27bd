/**
 * One holder at a time, the others wait first come, first served, in a line of bounded
 * length. `enter` answers undefined at once when the line is full.
 */
export class EngineQueue {
  readonly #capacity: number;
  #held = false;
  readonly #waiting: { grant(): void }[] = [];
  /** Places promised to requests that will call `enter` (their bodies are still arriving). */
  #reserved = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Requests waiting for their turn, or still sending their document. */
  get queued(): number {
    return this.#waiting.length + this.#reserved;
  }

  get held(): boolean {
    return this.#held;
  }

  /**
   * Holds a place in the line, or answers false when the line is full. A held place is then
   * either used by `enter` or given back by `release`.
   */
  reserve(): false | { enter(signal?: AbortSignal): Promise<() => void>; release(): void } {
    // With the engine free and nobody waiting, the request goes straight in: no place needed.
    if (this.#held || this.#waiting.length > 0 || this.#reserved > 0) {
      if (this.queued >= this.#capacity) return false;
    }
    this.#reserved++;
    let done = false;
    const give = () => {
      if (done) return false;
      done = true;
      this.#reserved--;
      return true;
    };
    return {
      enter: (signal) => {
        if (!give()) throw new Error('EngineQueue: a place is used once');
        return this.#enter(signal);
      },
      release: () => void give(),
    };
  }

  #enter(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#held = true;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#held = false;
          this.#next();
        });
      };
      const entry = { grant };
      const onAbort = () => {
        const index = this.#waiting.indexOf(entry);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal!.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      if (!this.#held && this.#waiting.length === 0) return grant();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  #next(): void {
    if (this.#held) return;
    this.#waiting.shift()?.grant();
  }
}
