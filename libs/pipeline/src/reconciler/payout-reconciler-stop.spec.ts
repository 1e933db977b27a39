import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { Registry } from 'prom-client';
import type pg from 'pg';
import { type PayoutLedger, type PayoutRepository } from '#ledger';
import { createLogger } from '#observability';
import { strictFake } from '#test-support';
import { connectorsOf, type ProviderClient } from '#provider-client/testing';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import { ReconcilerMetrics } from '../shared/reconciler.metrics.js';
import { PayoutReconciler } from './payout-reconciler.js';

/** A reconciler that finds nothing due and polls every `pollMs`. */
function idleReconciler(pollMs: number) {
  let claims = 0;
  const reconciler = new PayoutReconciler(
    {
      pool: strictFake<pg.Pool>('pool', {}),
      payouts: strictFake<PayoutRepository>('payouts', {
        claimDueChecks: async () => {
          claims++;
          return [];
        },
      }),
      ledger: strictFake<PayoutLedger>('ledger', {}),
      connectors: connectorsOf(strictFake<ProviderClient>('client', {})),
      submission: strictFake<PayoutSubmission>('submission', {}),
      metrics: new ReconcilerMetrics(new Registry()),
      logger: createLogger({ level: 'silent', name: 'test' }),
    },
    {
      owner: 'o',
      leaseMs: 1000,
      batchSize: 10,
      concurrency: 1,
      pollMs,
      schedule: [10],
      maxSendAttempts: 3,
      reversalWatch: [],
      notFoundSettleMs: 60_000,
      failedWatch: [],
      refusedResendSettleMs: 60_000,
      notReceivedFailsAccounts: new Set(),
    },
  );
  return { reconciler, claims: () => claims };
}

describe('PayoutReconciler stop', () => {
  it('stop() during the wait between polls resolves at once, not after the poll interval', async () => {
    const { reconciler, claims } = idleReconciler(30_000);
    reconciler.start();
    await delay(50);
    assert.equal(claims(), 1, 'one round ran and found nothing: the reconciler now waits');
    const t0 = performance.now();
    const outcome = await Promise.race([
      reconciler.stop().then(() => 'stopped'),
      delay(2_000, 'still waiting', { ref: false }),
    ]);
    assert.equal(outcome, 'stopped', 'stop() waited out the 30 s poll interval');
    assert.ok(performance.now() - t0 < 2_000);
    assert.equal(claims(), 1, 'no round after stop()');
  });
});
