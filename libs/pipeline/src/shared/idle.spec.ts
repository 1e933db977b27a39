import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Idle } from './idle.js';

const elapsed = async (p: Promise<void>): Promise<number> => {
  const t0 = performance.now();
  await p;
  return performance.now() - t0;
};

describe('Idle', () => {
  it('waits for the poll interval when nothing wakes it', async () => {
    // Node arms a timer from the event loop's cached clock, which can be some milliseconds old on a
    // busy machine, so a timer may end early by that much as performance.now() sees it (a 50 ms
    // wait measured 44 ms under load). Waking at once would measure about 0.
    assert.ok((await elapsed(new Idle().wait(200))) >= 150);
  });

  it('ends a wait early on wake()', async () => {
    const idle = new Idle();
    const waiting = idle.wait(10_000);
    setTimeout(() => idle.wake(), 10);
    assert.ok((await elapsed(waiting)) < 5_000);
  });

  it('keeps a wake that came while nobody waited: the next wait returns at once, the one after does not', async () => {
    const idle = new Idle();
    idle.wake();
    idle.wake();
    assert.ok((await elapsed(idle.wait(10_000))) < 5_000);
    assert.ok((await elapsed(idle.wait(50))) >= 45, 'two wakes before one wait are one wake');
  });

  it('a wake that ended a wait is not kept for the next one', async () => {
    const idle = new Idle();
    const first = idle.wait(10_000);
    idle.wake();
    await first;
    assert.ok((await elapsed(idle.wait(50))) >= 45);
  });
});
