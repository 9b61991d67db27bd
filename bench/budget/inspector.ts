import WebSocket from 'ws';

/**
 * A small client of the V8 inspector (the DevTools protocol) that `wrangler dev` exposes for
 * its primary worker: the heap the isolate uses, sampled while work runs, and a CPU profile.
 */
interface Answer {
  result?: unknown;
  error?: { message: string };
}

export class Inspector {
  private readonly socket: WebSocket;
  private nextId = 1;
  private readonly pending = new Map<number, (answer: Answer) => void>();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number } & Answer;
      if (message.id !== undefined) this.pending.get(message.id)?.(message);
    });
  }

  static async connect(port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new Inspector(socket);
  }

  /** One command; a command the isolate never answers fails after `timeoutMs`, naming itself. */
  send<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<T> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the inspector did not answer ${method} in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, (answer) => {
        clearTimeout(timer);
        this.pending.delete(id);
        if (answer.error) reject(new Error(`${method}: ${answer.error.message}`));
        else resolve(answer.result as T);
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Bytes of the JS heap in use (objects), and allocated (what the isolate holds). */
  heap(timeoutMs?: number): Promise<{ usedSize: number; totalSize: number }> {
    return this.send('Runtime.getHeapUsage', {}, timeoutMs);
  }

  close(): void {
    this.socket.close();
  }
}

export interface HeapSample {
  at: number;
  used: number;
  total: number;
}

/**
 * Samples the heap every `everyMs` until stopped (each answer comes between the isolate's
 * tasks). With `untilGone`, an isolate that stops answering for that long (its runtime crashed)
 * ends the sampling instead of failing it.
 */
export function sampleHeap(inspector: Inspector, everyMs = 20, untilGone?: number) {
  const samples: HeapSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const { usedSize, totalSize } = await inspector.heap(untilGone);
        samples.push({ at: Date.now(), used: usedSize, total: totalSize });
      } catch (err) {
        if (untilGone === undefined) throw err;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await loop;
    },
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * CPU time of a profile within a wall-clock interval: the samples that were not idle. The
 * profile's times (µs on the isolate's monotonic clock) are aligned with ours by the wall time
 * at which profiling started.
 */
export function cpuBetween(profile: CpuProfile, startedAt: number, from: number, to: number) {
  const idle = new Set(
    profile.nodes
      .filter((node) => ['(idle)', '(program)'].includes(node.callFrame.functionName))
      .map((node) => node.id),
  );
  let at = profile.startTime;
  let busy = 0;
  profile.samples.forEach((node, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const ms = startedAt + (at - profile.startTime) / 1000;
    if (ms >= from && ms < to && !idle.has(node)) busy += delta / 1000;
  });
  return busy;
}
