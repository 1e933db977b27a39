import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type pg from 'pg';
import { type PayoutChange, type PayoutLedger, type PayoutRepository, type PayoutRow } from '#ledger';
import { createLogger } from '#observability';
import { payoutRow, strictFake } from '#test-support';
import { type Connectors, type PayoutCheck, type PayoutConnector } from '#provider-client/testing';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import { ReconcilerMetrics } from '../shared/reconciler.metrics.js';
import { DEFAULT_CALENDAR } from '../shared/working-days.js';
import { PayoutReconciler } from './payout-reconciler.js';

const M = 60_000;
const H = 60 * M;

/** A reconciler over a connector that answers `check` (the connector fills subState, issue 29). */
function harness(check: PayoutCheck) {
  const moves: PayoutChange[] = [];
  const rescheduled: Array<Date | null> = [];
  const connector = strictFake<PayoutConnector>('connector', {
    api: 'v1',
    traits: (kind: string) => ({
      initiation: 'requestTransfer',
      status: kind === 'self_withdrawal' ? null : 'getTransferStatus',
      resendIsSafe: true,
      reversalWatch: false,
    }),
    checkPayout: async () => check,
  });
  const connectors: Connectors = { v1: connector, v2: connector };
  const reconciler = new PayoutReconciler(
    {
      pool: strictFake<pg.Pool>('pool', {}),
      payouts: strictFake<PayoutRepository>('payouts', {
        reschedule: async (_c: unknown, _id: string, _v: number, at: Date | null) => {
          rescheduled.push(at);
          return true;
        },
      }),
      ledger: strictFake<PayoutLedger>('ledger', {
        change: async (change: PayoutChange) => {
          moves.push(change);
          return payoutRow({ status: change.to, version: change.row.version + 1 });
        },
      }),
      connectors,
      submission: strictFake<PayoutSubmission>('submission', {}),
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
      refusedResendSettleMs: 3_600_000,
      notReceivedFailsAccounts: new Set<string>(),
      failedWatch: [],
      waits: {
        queued: { delays: [5 * M, H], maxMs: 96 * H },
        approvalPending: { delays: [5 * M, H], maxMs: 168 * H },
        nextWorkingDay: { delays: [30 * M], cutoffMinutes: 18 * 60, settleMs: 4 * H },
        attention: { delays: [H, 3 * H], maxMs: 336 * H },
        calendar: DEFAULT_CALENDAR,
        accounts: new Map(),
      },
    },
  );
  return { reconciler, moves, rescheduled };
}

const near = (at: Date | null | undefined, inMs: number): boolean =>
  at instanceof Date && Math.abs(at.getTime() - Date.now() - inMs) < 5_000;

describe('PayoutReconciler and the provider sub-states (issue 29)', () => {
  it('writes a new sub-state through the ledger (PENDING -> PENDING), checked again on its own schedule', async () => {
    const { reconciler, moves } = harness({
      found: true,
      answer: { status: 'PENDING', raw: 'QUEUED', subState: 'queued' },
    });
    await reconciler.check(payoutRow({ status: 'PENDING', subState: null }));
    assert.equal(moves.length, 1);
    const m = moves[0]!;
    assert.equal(m.to, 'PENDING');
    assert.equal(m.fields?.subState, 'queued');
    assert.ok(near(m.fields?.nextCheckAt, 5 * M), 'the queue schedule');
  });

  it('a PENDING answer without a sub-state takes none back: no move, no event (v1 never names one)', async () => {
    const { reconciler, moves } = harness({ found: true, answer: { status: 'PENDING', raw: 'PENDING' } });
    await reconciler.check(payoutRow({ status: 'PENDING', subState: 'sent_to_bank' }));
    assert.equal(moves.length, 0);
  });

  it('a payout handed to a person keeps being asked where the provider can be asked', async () => {
    const spent = { status: 'PENDING' as const, checkCount: 3 };
    const a = harness({ found: true, answer: { status: 'PENDING', raw: 'PENDING' } });
    await a.reconciler.check(payoutRow(spent));
    assert.equal(a.moves[0]?.to, 'REQUIRES_ATTENTION');
    assert.ok(near(a.moves[0]?.fields?.nextCheckAt, H), 'the attention watch in an hour');
    const b = harness({ found: true, answer: { status: 'PENDING', raw: 'PENDING' } });
    await b.reconciler.check(payoutRow({ ...spent, status: 'UNKNOWN', kind: 'self_withdrawal' }));
    assert.equal(b.moves[0]?.to, 'REQUIRES_ATTENTION');
    assert.equal(b.moves[0]?.fields?.nextCheckAt, null, 'nothing to ask: no watch');
  });

  it('a REQUIRES_ATTENTION payout the provider paid settles, with the reason that says so', async () => {
    const { reconciler, moves } = harness({
      found: true,
      answer: { status: 'SUCCESS', raw: 'SUCCESS', utr: 'U9' },
    });
    const ra: PayoutRow = payoutRow({
      status: 'REQUIRES_ATTENTION',
      reason: 'queued_past_provider_maximum',
      stateChangedAt: new Date(Date.now() - 5 * H),
    });
    await reconciler.check(ra);
    assert.deepEqual(
      moves.map((m) => [m.to, m.fields?.reason, m.fields?.utr]),
      [['SUCCESS', 'settled_by_provider_while_waiting', 'U9']],
    );
  });

  it('a REQUIRES_ATTENTION payout still pending is left with the person, asked later', async () => {
    const { reconciler, moves, rescheduled } = harness({
      found: true,
      answer: { status: 'PENDING', raw: 'PENDING', subState: 'queued' },
    });
    await reconciler.check(
      payoutRow({ status: 'REQUIRES_ATTENTION', stateChangedAt: new Date(Date.now() - 30 * M) }),
    );
    assert.deepEqual(moves, []);
    assert.ok(near(rescheduled[0], 30 * M), 'its next watch check, an hour after it entered the queue');
  });
});
