import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { Registry } from 'prom-client';
import type pg from 'pg';
import { type BatchLedger, type BatchRepository } from '#ledger';
import { createLogger } from '#observability';
import { strictFake } from '#test-support';
import { connectorsOf, type ProviderClient } from '#provider-client/testing';
import { ReconcilerMetrics } from '../shared/reconciler.metrics.js';
import { type BatchSubmission } from './batch-submission.js';
import { BatchCheckWorker } from './batch-check-worker.js';

describe('BatchCheckWorker stop', () => {
  it('stop() during the wait between polls resolves at once, not after the poll interval', async () => {
    let claims = 0;
    const worker = new BatchCheckWorker(
      {
        pool: strictFake<pg.Pool>('pool', {}),
        batches: strictFake<BatchRepository>('batches', {
          claimDueChecks: async () => {
            claims++;
            return [];
          },
        }),
        ledger: strictFake<BatchLedger>('ledger', {}),
        connectors: connectorsOf(strictFake<ProviderClient>('client', {})),
        submission: strictFake<BatchSubmission>('submission', {}),
        metrics: new ReconcilerMetrics(new Registry()),
        logger: createLogger({ level: 'silent', name: 'test' }),
      },
      {
        owner: 'o',
        leaseMs: 1000,
        schedule: [10],
        maxSendAttempts: 3,
        perRound: 5,
        pollMs: 30_000,
        failedWatch: [],
      },
    );
    worker.start();
    await delay(50);
    assert.equal(claims, 1, 'one round ran and found nothing: the worker now waits');
    const outcome = await Promise.race([
      worker.stop().then(() => 'stopped'),
      delay(2_000, 'still waiting', { ref: false }),
    ]);
    assert.equal(outcome, 'stopped', 'stop() waited out the 30 s poll interval');
    assert.equal(claims, 1, 'no round after stop()');
  });
});
