import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Dependency, type ProbeResult } from './dependency-probe.js';
import { waitForDependencies } from './wait-for-dependencies.js';

/** A dependency that answers the given results in turn (the last one from then on). */
function scripted(name: string, results: ProbeResult[]): Dependency & { calls: number } {
  const d = {
    name,
    target: `${name}-host`,
    calls: 0,
    probe: () => Promise.resolve(results[Math.min(d.calls++, results.length - 1)] as ProbeResult),
  };
  return d;
}

const down = (reason = 'ECONNREFUSED'): ProbeResult => ({ state: 'unavailable', reason });

describe('waitForDependencies', () => {
  it('retries with a doubling, capped pause until every dependency answers', async () => {
    const pg = scripted('postgres', [down(), down(), down(), { state: 'up' }]);
    const kafka = scripted('kafka', [{ state: 'up' }]);
    const pauses: Array<number | undefined> = [];
    const up: string[] = [];
    const r = await waitForDependencies([pg, kafka], {
      timeoutMs: 5_000,
      firstDelayMs: 5,
      maxDelayMs: 12,
      onAttempt: (a) => pauses.push(a.retryInMs),
      onUp: (d) => up.push(d),
    });
    assert.deepEqual(r, { outcome: 'up' });
    assert.deepEqual(pauses, [5, 10, 12]);
    assert.deepEqual(up.sort(), ['kafka', 'postgres']);
  });

  it('gives up after the timeout, naming each dependency still down with its last reason', async () => {
    const started = Date.now();
    const r = await waitForDependencies([scripted('kafka', [down('first'), down('last')])], {
      timeoutMs: 60,
      firstDelayMs: 10,
      onAttempt: () => undefined,
    });
    assert.equal(r.outcome, 'unavailable');
    assert.ok(Date.now() - started < 1_000);
    assert.deepEqual(r.outcome === 'unavailable' ? r.problems.map((p) => [p.dependency, p.reason]) : [], [
      ['kafka', 'last'],
    ]);
  });

  it('stops at once when a dependency refuses the configuration, whatever the others do', async () => {
    const started = Date.now();
    const r = await waitForDependencies(
      [
        scripted('postgres', [
          { state: 'misconfigured', variable: 'DATABASE_URL', reason: 'no such database' },
        ]),
        scripted('kafka', [down()]),
      ],
      { timeoutMs: 10_000, firstDelayMs: 5_000, onAttempt: () => undefined },
    );
    assert.ok(Date.now() - started < 1_000, 'did not wait out the kafka pause');
    assert.deepEqual(r, {
      outcome: 'misconfigured',
      problems: [
        { dependency: 'postgres', variable: 'DATABASE_URL', reason: 'no such database', attempts: 1 },
      ],
    });
  });

  it('answers aborted when the signal fires during a pause', async () => {
    const ac = new AbortController();
    const done = waitForDependencies([scripted('kafka', [down()])], {
      timeoutMs: 10_000,
      firstDelayMs: 5_000,
      signal: ac.signal,
      onAttempt: () => ac.abort(),
    });
    assert.deepEqual(await done, { outcome: 'aborted' });
  });
});
