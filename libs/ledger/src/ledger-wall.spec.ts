import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as ledger from './index.js';
import { BatchRepository, PayoutRepository } from './index.js';

// "Only the ledger changes state" is a wall (ADR 0003, amendment): what libs/ledger exports can
// read and schedule payouts and batches, never move them. The architecture check refuses an
// import of the moves from outside the ledger; this spec holds the public surface itself, at
// compile time (each @ts-expect-error fails `tsc` if the method comes back) and at run time.

const PAYOUT_MOVES = [
  'insertNew',
  'claimForSubmission',
  'transition',
  'transitionMany',
  'markResent',
  'reopenForRecheck',
] as const;
const BATCH_MOVES = ['insertNew', 'claimForSubmission', 'transition', 'markResent', 'updateItems'] as const;

/** Compile-time only: never called. */
export function compileTimeWall(payouts: PayoutRepository, batches: BatchRepository): unknown[] {
  // A caller no longer announces: the ledger transaction does, after its commit (private).
  // @ts-expect-error announce is not a public member of PayoutLedger
  const payoutAnnounce: keyof ledger.PayoutLedger = 'announce';
  // @ts-expect-error announce is not a public member of BatchLedger
  const batchAnnounce: keyof ledger.BatchLedger = 'announce';
  return [
    payoutAnnounce,
    batchAnnounce,
    // @ts-expect-error a payout is inserted by PayoutLedger.admit
    payouts.insertNew,
    // @ts-expect-error a payout is claimed by PayoutLedger.claimForSubmission
    payouts.claimForSubmission,
    // @ts-expect-error a payout moves by PayoutLedger.change / apply
    payouts.transition,
    // @ts-expect-error a payout moves by PayoutLedger.changeMany / apply
    payouts.transitionMany,
    // @ts-expect-error a payout is re-sent by PayoutLedger.resend
    payouts.markResent,
    // @ts-expect-error a payout is reopened by PayoutLedger.reopen
    payouts.reopenForRecheck,
    // @ts-expect-error a batch is inserted by BatchLedger.admit
    batches.insertNew,
    // @ts-expect-error a batch is claimed by BatchLedger.claimForSubmission
    batches.claimForSubmission,
    // @ts-expect-error a batch moves by BatchLedger.change / apply
    batches.transition,
    // @ts-expect-error a batch is re-sent by BatchLedger.resend
    batches.markResent,
    // @ts-expect-error entries move by BatchLedger.applyEntries
    batches.updateItems,
  ];
}

describe('the ledger wall', () => {
  it('the exported repositories have no state-changing method', () => {
    for (const m of PAYOUT_MOVES)
      assert.equal(m in PayoutRepository.prototype, false, `PayoutRepository.${m} is the ledger's`);
    for (const m of BATCH_MOVES)
      assert.equal(m in BatchRepository.prototype, false, `BatchRepository.${m} is the ledger's`);
  });

  it('the index exports neither the moves nor a way to queue an announcement', () => {
    const names = Object.keys(ledger);
    for (const internal of ['PayoutMoves', 'BatchMoves', 'runLedgerTransaction', 'announcerOf'])
      assert.equal(names.includes(internal), false, `${internal} is internal to libs/ledger`);
  });

  it('the steps that left the announcing to their caller are gone: the steps take a ledger transaction', () => {
    for (const cls of [ledger.PayoutLedger, ledger.BatchLedger])
      for (const m of ['applyWithin', 'applyEntriesWithin', 'admitted'])
        assert.equal(m in cls.prototype, false, `${cls.name}.${m}`);
  });
});
