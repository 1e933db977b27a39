import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { OperatorDirectory, sha256Hex } from './operators.js';
import { FailureWindow, SampledLog, SignInGate, SignInMetrics, type SignInLog } from './sign-in-gate.js';

const GOOD = 'good-token-good-token-good-token';
const directory = new OperatorDirectory([{ id: 'olga', role: 'operator', tokenSha256: sha256Hex(GOOD) }]);

function gate(limits = { maxFailures: 3, windowMs: 60_000, logIntervalMs: 10_000 }) {
  const registry = new Registry();
  const lines: Parameters<SignInLog>[0][] = [];
  const g = new SignInGate(
    (t) => directory.check(t),
    limits,
    new SignInMetrics(registry),
    (l) => lines.push(l),
  );
  const count = async (reason: string): Promise<number> =>
    (await registry.getSingleMetric('payouts_ops_auth_failures_total')?.get())?.values.find(
      (v) => v.labels['reason'] === reason,
    )?.value ?? -1;
  return { g, lines, count, registry };
}

describe('SignInGate', () => {
  it('signs in a known bearer token; names the reason of each failure', async () => {
    const { g } = gate();
    assert.deepEqual(await g.attempt('a', `Bearer ${GOOD}`, 0), {
      ok: true,
      operator: { id: 'olga', name: 'olga', role: 'operator', via: { kind: 'configured' } },
    });
    assert.deepEqual(await g.attempt('b', undefined, 0), { ok: false, reason: 'missing' });
    assert.deepEqual(await g.attempt('c', `Basic ${GOOD}`, 0), { ok: false, reason: 'malformed' });
    assert.deepEqual(await g.attempt('d', ['Bearer x', 'Bearer y'], 0), { ok: false, reason: 'malformed' });
    assert.deepEqual(await g.attempt('e', 'Bearer nope', 0), { ok: false, reason: 'unknown_token' });
    assert.deepEqual(await g.attempt('f', sha256Hex(GOOD), 0), { ok: false, reason: 'malformed' });
  });

  it('past the limit refuses the source with Retry-After, a good token too; other sources and later are unaffected', async () => {
    const { g } = gate();
    for (const t of [0, 1_000, 2_000]) assert.equal((await g.attempt('a', 'Bearer nope', t)).ok, false);
    assert.deepEqual(await g.attempt('a', 'Bearer nope', 10_000), {
      ok: false,
      reason: 'limited',
      retryAfterSeconds: 50,
    });
    assert.deepEqual(await g.attempt('a', `Bearer ${GOOD}`, 59_500), {
      ok: false,
      reason: 'limited',
      retryAfterSeconds: 1,
    });
    assert.equal((await g.attempt('b', `Bearer ${GOOD}`, 10_000)).ok, true, 'another source');
    assert.equal((await g.attempt('a', `Bearer ${GOOD}`, 60_000)).ok, true, 'the window is over');
  });

  it('a success does not reset the count (a viewer cannot interleave guesses at an approver token)', async () => {
    const { g } = gate();
    for (let i = 0; i < 3; i++) {
      assert.equal((await g.attempt('a', `Bearer ${GOOD}`, i)).ok, true);
      assert.equal((await g.attempt('a', 'Bearer guess', i)).ok, false);
    }
    assert.equal((await g.attempt('a', `Bearer ${GOOD}`, 10)).ok, false);
  });

  it('counts failures by reason, refused ones as limited', async () => {
    const { g, count, registry } = gate();
    assert.equal(await count('limited'), 0, 'every reason is exported from the start');
    await g.attempt('a', undefined, 0);
    await g.attempt('a', 'Token x', 0);
    await g.attempt('a', 'Bearer secret-guess', 0);
    await g.attempt('a', 'Bearer secret-guess', 0);
    await g.attempt('a', `Bearer ${GOOD}`, 0);
    assert.deepEqual(
      [
        await count('missing'),
        await count('malformed'),
        await count('unknown_token'),
        await count('limited'),
      ],
      [1, 1, 1, 2],
    );
    assert.ok(!(await registry.metrics()).includes('secret-guess'));
  });

  it('logs one line per source per interval, then the count left out; never the token', async () => {
    const { g, lines } = gate({ maxFailures: 100, windowMs: 60_000, logIntervalMs: 10_000 });
    for (let t = 0; t < 5; t++) await g.attempt('a', `Bearer secret-guess-${t}`, t);
    await g.attempt('b', undefined, 3);
    assert.deepEqual(lines, [
      { source: 'a', suppressed: 0, reason: 'unknown_token' },
      { source: 'b', suppressed: 0, reason: 'missing' },
    ]);
    g.flush(9_999);
    assert.equal(lines.length, 2, 'the interval is not over');
    g.flush(10_000);
    assert.deepEqual(lines.slice(2), [{ source: 'a', suppressed: 4 }]);
    g.flush(20_000);
    assert.equal(lines.length, 3, 'nothing left out since');
    await g.attempt('a', 'Bearer x', 25_000);
    assert.deepEqual(lines.slice(3), [{ source: 'a', suppressed: 0, reason: 'unknown_token' }]);
    assert.ok(!JSON.stringify(lines).includes('secret-guess'));
  });
});

describe('SignInGate with issued tokens', () => {
  it('names an expired or revoked token with its id, counts it by method and outcome, and limits it like a wrong one', async () => {
    const registry = new Registry();
    const g = new SignInGate(
      (t) =>
        t === 'old'
          ? { ok: false, reason: 'expired_token', tokenId: '7' }
          : t === 'gone'
            ? { ok: false, reason: 'revoked_token', tokenId: '8' }
            : {
                ok: true,
                operator: {
                  id: 'olga',
                  name: 'olga',
                  role: 'viewer',
                  via: { kind: 'token', tokenId: '9', tokenName: 'ci' },
                },
                tokenId: '9',
              },
      { maxFailures: 2, windowMs: 60_000, logIntervalMs: 10_000 },
      new SignInMetrics(registry),
      () => undefined,
    );
    assert.deepEqual(await g.attempt('a', 'Bearer ok', 0), {
      ok: true,
      operator: {
        id: 'olga',
        name: 'olga',
        role: 'viewer',
        via: { kind: 'token', tokenId: '9', tokenName: 'ci' },
      },
      tokenId: '9',
    });
    assert.deepEqual(await g.attempt('a', 'Bearer old', 0), {
      ok: false,
      reason: 'expired_token',
      tokenId: '7',
    });
    assert.deepEqual(await g.attempt('a', 'Bearer gone', 0), {
      ok: false,
      reason: 'revoked_token',
      tokenId: '8',
    });
    assert.equal((await g.attempt('a', 'Bearer ok', 0)).ok, false, 'two failures: limited');
    const values = (await registry.getSingleMetric('payouts_ops_sign_ins_total')?.get())?.values ?? [];
    const count = (outcome: string) =>
      values.find((v) => v.labels['method'] === 'token' && v.labels['outcome'] === outcome)?.value;
    assert.deepEqual(
      ['success', 'expired_token', 'revoked_token', 'limited', 'unknown_token'].map(count),
      [1, 1, 1, 1, 0],
    );
  });
});

describe('FailureWindow and SampledLog', () => {
  it('keep at most maxSources, forgetting the oldest first', async () => {
    const w = new FailureWindow(1, 60_000, 2);
    w.fail('a', 0);
    w.fail('b', 1);
    w.fail('c', 2);
    assert.equal(w.tracked, 2);
    assert.equal(w.refusal('a', 3), undefined, 'a was forgotten');
    assert.equal(w.refusal('c', 3), 60);
  });

  it('a sampled log reports the counts of forgotten sources as others', async () => {
    const log = new SampledLog(10_000, 1);
    log.note('a', 0);
    log.note('a', 1);
    log.note('b', 2);
    assert.deepEqual(log.flush(20_000), [{ source: 'others', suppressed: 1 }]);
  });

  it('a line logged after an interval carries the count left out before it', async () => {
    const log = new SampledLog(10_000);
    log.note('a', 0);
    log.note('a', 1);
    log.note('a', 2);
    assert.deepEqual(log.note('a', 10_000), { source: 'a', suppressed: 2 });
  });
});
