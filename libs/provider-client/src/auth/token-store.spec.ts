import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Diagnostics } from '../core/outcome.js';
import { type AuthorizeResult, TokenStore } from './token-store.js';

const diagnostics: Diagnostics = {
  endpoint: 'authorize',
  requestId: 'r',
  sent: true,
  attempts: 1,
  durationMs: 1,
};

describe('TokenStore', () => {
  it('refreshes at expiry minus the margin, single-flight', async () => {
    let now = 1_000_000;
    let calls = 0;
    const store = new TokenStore(
      async (): Promise<AuthorizeResult> => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 5));
        return { outcome: 'success', data: { token: `t${calls}`, expiresAt: now / 1000 + 360 }, diagnostics };
      },
      60,
      () => now,
    );
    const grants = await Promise.all([store.get(), store.get(), store.get()]);
    assert.equal(calls, 1);
    assert.ok(grants.every((g) => g.ok && g.token === 't1'));
    now += 299_000;
    assert.deepEqual(await store.get().then((g) => g.ok && g.token), 't1');
    now += 2_000;
    assert.deepEqual(await store.get().then((g) => g.ok && g.token), 't2');
  });

  it('invalidates only the token that failed', async () => {
    let calls = 0;
    const store = new TokenStore(async (): Promise<AuthorizeResult> => {
      calls += 1;
      return {
        outcome: 'success',
        data: { token: `t${calls}`, expiresAt: Date.now() / 1000 + 360 },
        diagnostics,
      };
    }, 60);
    await store.get();
    store.invalidate('t1');
    await store.get();
    store.invalidate('t1'); // stale rejection: t2 stays
    await store.get();
    assert.equal(calls, 2);
  });

  it('passes an authorize failure through as a typed grant', async () => {
    const store = new TokenStore(
      async () => ({ outcome: 'fatal-config', reason: 'IP not whitelisted', diagnostics }),
      60,
    );
    const g = await store.get();
    assert.equal(g.ok, false);
    assert.equal(g.ok ? '' : g.result.outcome, 'fatal-config');
  });
});
