import { describe, expect, it } from 'vitest';
import { EngineQueue } from './queue.ts';

function place(queue: EngineQueue) {
  const reserved = queue.reserve();
  if (!reserved) throw new Error('the line is full');
  return reserved;
}

describe('EngineQueue', () => {
  it('lets one in at a time, the others first come, first served', async () => {
    const queue = new EngineQueue(8);
    const order: string[] = [];
    const releaseA = await place(queue).enter();
    const b = place(queue)
      .enter()
      .then((release) => (order.push('b'), release));
    const c = place(queue)
      .enter()
      .then((release) => (order.push('c'), release));
    expect(queue).toMatchObject({ held: true, queued: 2 });
    releaseA();
    const releaseB = await b;
    expect(order).toEqual(['b']);
    expect(queue.queued).toBe(1);
    releaseB();
    releaseB(); // twice is once
    (await c)();
    expect(order).toEqual(['b', 'c']);
    expect(queue).toMatchObject({ held: false, queued: 0 });
  });

  it('refuses a place when the line is full, and counts places not yet used', async () => {
    const queue = new EngineQueue(1);
    const release = await place(queue).enter();
    const waiting = place(queue); // its document still arriving
    expect(queue.queued).toBe(1);
    expect(queue.reserve()).toBe(false);
    waiting.release();
    expect(queue.queued).toBe(0);
    const next = place(queue).enter();
    release();
    (await next)();
  });

  it('with a line of 0, takes a request only when the engine is free', async () => {
    const queue = new EngineQueue(0);
    const release = await place(queue).enter();
    expect(queue.reserve()).toBe(false);
    release();
    (await place(queue).enter())();
  });

  it('drops a waiting request whose client went away', async () => {
    const queue = new EngineQueue(8);
    const release = await place(queue).enter();
    const controller = new AbortController();
    const gone = place(queue).enter(controller.signal);
    const next = place(queue).enter();
    controller.abort(new Error('gone'));
    await expect(gone).rejects.toThrow('gone');
    expect(queue.queued).toBe(1);
    release();
    (await next)();
    expect(queue.held).toBe(false);
  });
});
