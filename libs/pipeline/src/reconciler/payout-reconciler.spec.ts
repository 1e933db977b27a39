import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type pg from 'pg';
import { type PayoutChange, type PayoutLedger, type PayoutRepository, type PayoutRow } from '#ledger';
import { createLogger } from '#observability';
import { payoutRow, strictFake } from '#test-support';
import { connectorsOf, type ProviderClient } from '#provider-client/testing';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import { ReconcilerMetrics } from '../shared/reconciler.metrics.js';
import { PayoutReconciler } from './payout-reconciler.js';

const strict = strictFake;
const row = (over: Partial<PayoutRow>): PayoutRow => payoutRow({ accountId: 'default', ...over });

const diagnostics = {
  endpoint: 'getTransferStatus' as const,
  requestId: 'r',
  sent: true,
  attempts: 1,
  durationMs: 1,
};

function harness(notFound: boolean | string = true) {
  const moves: PayoutChange[] = [];
  const rescheduled: Array<{ inMs: number; lastError: Record<string, unknown> | null }> = [];
  const pool = strict<pg.Pool>('pool', {});
  const payouts = strict<PayoutRepository>('payouts', {
    reschedule: async (
      _c: unknown,
      _id: string,
      _v: number,
      at: Date | null,
      lastError: Record<string, unknown> | null,
    ) => {
      rescheduled.push({ inMs: (at?.getTime() ?? 0) - Date.now(), lastError });
      return true;
    },
  });
  const ledger = strict<PayoutLedger>('ledger', {
    change: async (change: PayoutChange) => {
      moves.push(change);
      const { row: from, to, fields } = change;
      return row({ status: to, version: from.version + 1, reason: fields?.reason ?? null });
    },
  });
  const client = strict<ProviderClient>('client', {
    call: async () =>
      typeof notFound === 'string'
        ? {
            outcome: notFound === 'SUCCESS' ? 'success' : 'pending',
            data: { transferId: 't1', status: notFound, reason: null },
            diagnostics,
          }
        : notFound
          ? {
              outcome: 'failed',
              kind: 'not-found',
              reason: 'TransferId is invalid or does not exist',
              diagnostics: {
                endpoint: 'getTransferStatus',
                requestId: 'r',
                sent: true,
                attempts: 1,
                durationMs: 1,
              },
            }
          : {
              outcome: 'unknown',
              reason: 'x',
              diagnostics: {
                endpoint: 'getTransferStatus',
                requestId: 'r',
                sent: true,
                attempts: 1,
                durationMs: 1,
              },
            },
  });
  const reconciler = new PayoutReconciler(
    {
      pool,
      payouts,
      ledger,
      connectors: connectorsOf(client),
      // Re-sending is exactly what these tests forbid: calling it fails the test.
      submission: strict<PayoutSubmission>('submission', {}),
      metrics: new ReconcilerMetrics(new Registry()),
      logger: createLogger({ level: 'silent', name: 'test' }),
    },
    {
      owner: 'o',
      leaseMs: 1000,
      batchSize: 10,
      concurrency: 1,
      pollMs: 10,
      schedule: [10, 10, 10],
      maxSendAttempts: 3,
      reversalWatch: [],
      notFoundSettleMs: 60_000,
      failedWatch: [],
      refusedResendSettleMs: 3_600_000,
      notReceivedFailsAccounts: new Set(['default']),
    },
  );
  return { reconciler, moves, rescheduled };
}

describe('PayoutReconciler bounds', () => {
  it('hands an UNKNOWN payout to a person once it has been sent MAX_SEND_ATTEMPTS times, instead of sending again', async () => {
    const { reconciler, moves } = harness();
    await reconciler.check(row({ status: 'UNKNOWN', attempt: 3 }));
    assert.deepEqual(
      moves.map((m) => [m.to, m.fields?.reason]),
      [['REQUIRES_ATTENTION', 'too_many_send_attempts']],
    );
  });

  it('never re-sends an in-doubt internal transfer; "not found" twice, a settle window apart, is FAILED', async () => {
    const first = harness();
    await first.reconciler.check(row({ status: 'UNKNOWN', kind: 'internal_transfer', attempt: 1 }));
    assert.deepEqual(first.moves, [], 'one "not found" settles nothing');
    assert.equal(first.rescheduled.length, 1);
    const since = first.rescheduled[0]?.lastError?.['notFoundSince'];
    assert.equal(typeof since, 'string', 'the first "not found" is remembered on the row');
    assert.ok((first.rescheduled[0]?.inMs ?? 0) > 59_000, 'asked again after the settle window');

    const again = harness();
    const lastError = { notFoundSince: new Date(Date.now() - 61_000).toISOString() };
    await again.reconciler.check(
      row({ status: 'UNKNOWN', kind: 'internal_transfer', attempt: 1, lastError }),
    );
    assert.deepEqual(
      again.moves.map((m) => [m.to, m.fields?.reason]),
      [['FAILED', 'not_received_by_provider']],
    );
  });

  it('never re-sends a crashed (SUBMITTING, outcome unknown) self withdrawal', async () => {
    const { reconciler, moves } = harness();
    await reconciler.check(row({ status: 'SUBMITTING', kind: 'self_withdrawal', lastError: null }));
    assert.deepEqual(
      moves.map((m) => m.fields?.reason),
      ['in_doubt_resend_unsafe'],
    );
  });

  it('settles a crashed SUBMITTING internal transfer by its status, without a re-send or a person', async () => {
    const { reconciler, moves } = harness('SUCCESS');
    await reconciler.check(row({ status: 'SUBMITTING', kind: 'internal_transfer', lastError: null }));
    assert.deepEqual(
      moves.map((m) => m.to),
      ['SUCCESS'],
    );
  });

  // Found by the chaos run: a direct transfer left SUBMITTING by a kill was REVERSED at the
  // provider; the answer was ignored as "backwards" at every check, and a person got it.
  it('settles a crashed SUBMITTING payout the provider has REVERSED (paid, then returned), without a person', async () => {
    const { reconciler, moves } = harness('REVERSED');
    await reconciler.check(row({ status: 'SUBMITTING', kind: 'direct_transfer', lastError: null }));
    assert.deepEqual(
      moves.map((m) => m.to),
      ['REVERSED'],
    );
  });

  it('gives a row that moves to a new state the whole schedule, whatever the checks of the old one', async () => {
    const { reconciler, moves } = harness('PENDING');
    await reconciler.check(row({ status: 'UNKNOWN', checkCount: 3 }));
    assert.deepEqual(
      moves.map((m) => m.to),
      ['PENDING'],
    );
  });

  it('asks for the status before handing over a payout whose re-sends were never processed', async () => {
    const found = harness('SUCCESS');
    const spent = {
      status: 'SUBMITTING' as const,
      attempt: 3,
      checkCount: 3,
      lastError: { processed: false },
    };
    await found.reconciler.check(row(spent));
    assert.deepEqual(
      found.moves.map((m) => m.to),
      ['SUCCESS'],
      'an earlier attempt had reached the provider',
    );
    const unknown = harness(true);
    await unknown.reconciler.check(row(spent));
    assert.deepEqual(
      unknown.moves.map((m) => m.fields?.reason),
      ['not_processed_after_retries'],
    );
  });
});
