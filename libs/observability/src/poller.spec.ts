import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { type AppLogger } from './logger.js';
import { type PollOutcome, Poller, type PollerOptions } from './poller.js';

/** Records what the poller logged and counted. */
function observed() {
  const errors: string[] = [];
  const infos: string[] = [];
  const failed: string[] = [];
  const logger = {
    error: (_o: object, msg: string) => errors.push(msg),
    info: (_o: object, msg: string) => infos.push(msg),
  } as unknown as AppLogger;
  return { errors, infos, failed, logger, metrics: { failed: (w: string) => failed.push(w) } };
}

function poller(step: () => Promise<PollOutcome>, over: Partial<PollerOptions> = {}) {
  const o = observed();
  const p = new Poller({ name: 'test', logger: o.logger, metrics: o.metrics, step, pollMs: 60_000, ...over });
  return { p, ...o };
}

/** Resolves with how long `p` took, or 'late' once `limitMs` has passed. */
async function within(p: Promise<unknown>, limitMs: number): Promise<number | 'late'> {
  const t0 = performance.now();
  return Promise.race([
    p.then(() => performance.now() - t0),
    delay(limitMs, 'late' as const, { ref: false }),
  ]);
}

/** Polls `cond` every few ms until it holds (or fails after `ms`). */
async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail('condition not reached');
    await delay(5);
  }
}

describe('Poller', () => {
  it('stop() during the wait between steps resolves at once, and no step follows', async () => {
    let steps = 0;
    const { p } = poller(async () => {
      steps++;
      return 'idle';
    });
    p.start();
    await until(() => steps === 1);
    await delay(20);
    const took = await within(p.stop(), 1_000);
    assert.notEqual(took, 'late', 'stop() waited out the 60 s poll interval');
    await delay(30);
    assert.equal(steps, 1);
  });

  it('stop() during a step resolves when that step ends, and starts no other', async () => {
    let steps = 0;
    let release!: () => void;
    const { p } = poller(async () => {
      steps++;
      await new Promise<void>((r) => (release = r));
      return 'busy';
    });
    p.start();
    await until(() => steps === 1);
    let stopped = false;
    const stopping = p.stop().then(() => (stopped = true));
    await delay(30);
    assert.equal(stopped, false, 'the step in progress is not abandoned');
    release();
    await stopping;
    assert.equal(steps, 1);
  });

  it('waits the poll interval after an idle step; wake() cuts the wait short', async () => {
    const at: number[] = [];
    const { p } = poller(
      async () => {
        at.push(performance.now());
        return 'idle';
      },
      { pollMs: 150 },
    );
    p.start();
    await until(() => at.length === 2);
    // Timers may fire a few ms early as performance.now() sees them on a loaded machine.
    assert.ok(at[1]! - at[0]! >= 120, `waited ${at[1]! - at[0]!} ms for a 150 ms poll`);
    p.wake();
    await until(() => at.length === 3, 1_000);
    assert.ok(at[2]! - at[1]! < 100, 'a wake ends the wait');
    await p.stop();
  });

  it('a wake that comes during a step makes the wait after it return at once; one before a step does not outlive it', async () => {
    let steps = 0;
    const { p } = poller(async () => {
      steps++;
      if (steps === 1) p.wake(); // new work committed while this step looked
      return 'idle';
    });
    p.start();
    await until(() => steps === 2, 1_000);
    await delay(200);
    assert.equal(steps, 2, 'the second step answered the wake; the poller waits again');
    await p.stop();
  });

  it('runs the next step at once after a busy one, and waits as a step asks', async () => {
    const at: number[] = [];
    const { p } = poller(async () => {
      at.push(performance.now());
      return at.length < 3 ? 'busy' : at.length === 3 ? { waitMs: 100 } : 'idle';
    });
    p.start();
    await until(() => at.length === 4);
    assert.ok(at[2]! - at[0]! < 100, 'busy steps follow one another');
    assert.ok(at[3]! - at[2]! >= 80, 'the asked-for wait is kept');
    await p.stop();
  });

  it('backs off exponentially after failed steps, logs the streak once, counts each, and recovers', async () => {
    const at: number[] = [];
    const { p, errors, infos, failed } = poller(
      async () => {
        at.push(performance.now());
        if (at.length <= 4) throw new Error(`down ${at.length}`);
        return 'idle';
      },
      { backoff: { firstMs: 40, maxMs: 100 } },
    );
    p.start();
    await until(() => at.length === 5);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    // 40, 80, then capped at 100 (timers may fire a few ms early on a loaded machine).
    assert.ok(gaps[0]! >= 30 && gaps[0]! < 75, `first back-off ${gaps[0]}`);
    assert.ok(gaps[1]! >= 70, `second back-off ${gaps[1]}`);
    assert.ok(gaps[2]! >= 90 && gaps[3]! >= 90, `capped back-offs ${gaps[2]} ${gaps[3]}`);
    assert.ok(gaps[3]! < 180, `the cap holds: ${gaps[3]}`);
    assert.deepEqual(errors, ['test: step failed; backing off'], 'one log line for the streak');
    assert.deepEqual(failed, ['test', 'test', 'test', 'test'], 'every failure counted');
    assert.deepEqual(infos, ['test: recovered after failed steps']);
    await p.stop();
  });

  it('a new streak after a recovery is logged again, and backs off from the start again', async () => {
    let n = 0;
    const at: number[] = [];
    const { p, errors } = poller(
      async () => {
        n++;
        at.push(performance.now());
        if (n === 1 || n === 2 || n === 4) throw new Error('down');
        return n === 3 ? 'busy' : 'idle';
      },
      { backoff: { firstMs: 40, maxMs: 1_000 } },
    );
    p.start();
    await until(() => n === 5);
    assert.equal(errors.length, 2);
    assert.ok(at[4]! - at[3]! < 75, 'the second streak starts from the first back-off');
    await p.stop();
  });

  it('a wake does not cut a back-off short; stop() does', async () => {
    let steps = 0;
    const { p } = poller(
      async () => {
        steps++;
        throw new Error('down');
      },
      { backoff: { firstMs: 60_000 } },
    );
    p.start();
    await until(() => steps === 1);
    p.wake();
    await delay(50);
    assert.equal(steps, 1, 'still backing off');
    assert.notEqual(await within(p.stop(), 1_000), 'late');
    assert.equal(steps, 1);
  });

  it('never runs two steps at once, whatever start(), wake() and stop() are called', async () => {
    let active = 0;
    let most = 0;
    let steps = 0;
    const { p } = poller(
      async () => {
        active++;
        steps++;
        most = Math.max(most, active);
        await delay(3);
        active--;
        return steps % 2 === 0 ? 'busy' : 'idle';
      },
      { pollMs: 5 },
    );
    for (let i = 0; i < 20; i++) {
      p.start();
      p.start();
      p.wake();
      await delay(2);
      const stopping = p.stop();
      p.start(); // started again before the stop has resolved
      p.wake();
      await delay(2);
      await stopping;
    }
    await p.stop();
    assert.ok(steps > 10, `${steps} steps ran`);
    assert.equal(most, 1);
    assert.equal(active, 0, 'stop() resolved after the last step ended');
  });
});
