import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { type BatchLedger, type BatchRow, type FundsClaimRound } from '#ledger';
import { type AppLogger } from '#observability';
import { strictFake } from '#test-support';
import { type BatchSubmission } from './batch-submission.js';
import { BatchSubmitWorker } from './batch-submit-worker.js';

const batch = (batchTransferId: string) => ({ batchTransferId }) as unknown as BatchRow;

function harness(fundsHold?: { accountIds: string[] }) {
  const claims: unknown[][] = [];
  const rounds: FundsClaimRound[] = [];
  const submitted: string[] = [];
  const others: BatchRow[] = [];
  const held: BatchRow[] = [];
  const unheld: BatchRow[] = [];
  const unheldLooks: unknown[][] = [];
  const ledger = strictFake<BatchLedger>('ledger', {
    claimForSubmission: async (...args: unknown[]) => {
      claims.push(args);
      return others.splice(0, args[2] as number);
    },
    claimHeldOfUnheld: async (...args: unknown[]) => {
      unheldLooks.push(args);
      return unheld.splice(0, args[2] as number);
    },
    claimWithFunds: async (r: FundsClaimRound) => {
      rounds.push(r);
      const sent = held.splice(0, r.slots);
      return { locked: true, sent, held: 0, rejected: 0, slotBound: held.length > 0 };
    },
  });
  const submission = strictFake<BatchSubmission>('submission', {
    submit: async (b: BatchRow) => {
      submitted.push(b.batchTransferId);
    },
  });
  const worker = new BatchSubmitWorker(
    {
      ledger,
      submission,
      logger: { error: () => undefined, info: () => undefined } as unknown as AppLogger,
      ...(fundsHold
        ? { fundsHold: { ...fundsHold, decide: () => () => [], room: () => () => null, fee: () => 0n } }
        : {}),
    },
    { owner: 'o', leaseMs: 1_000, idlePollMs: 60_000, perRound: 2 },
  );
  return { worker, claims, rounds, submitted, others, held, unheld, unheldLooks };
}

async function until(cond: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail('condition not reached');
    await delay(5);
  }
}

describe('BatchSubmitWorker and FUNDS_HOLD', () => {
  it('holding off: the claim as today (three arguments), no funds round', async () => {
    const h = harness();
    h.worker.start();
    await until(() => h.claims.length === 1);
    await h.worker.stop();
    assert.deepEqual(h.claims, [['o', 1_000, 2]]);
  });

  it('batches held by an account no longer in FUNDS_HOLD are sent: looked for at start, not per claim', async () => {
    const h = harness();
    h.unheld.push(batch('u1'));
    for (let i = 0; i < 9; i++) h.others.push(batch(`o${i}`));
    h.worker.start();
    await until(() => h.submitted.length === 10);
    await h.worker.stop();
    assert.equal(h.submitted[0], 'u1');
    assert.deepEqual(h.unheldLooks, [['o', 1_000, 2, []]], 'one look, at start');
    assert.ok(h.claims.length >= 5);
    assert.equal(h.claims[0]?.[2], 1, 'the claim took what the look left of the round');
  });

  it('a held account: left out of the claim, its batches sent by its funds round, which a new reading wakes', async () => {
    const h = harness({ accountIds: ['acc_h'] });
    h.others.push(batch('o1'), batch('o2'), batch('o3'));
    h.held.push(batch('h1'));
    h.worker.start();
    await until(() => h.submitted.length === 4);
    assert.ok(h.claims.every((c) => JSON.stringify(c[3]) === '["acc_h"]'));
    assert.equal(h.rounds.length, 1);
    assert.equal(h.rounds[0]?.accountId, 'acc_h');
    await delay(20);
    assert.equal(h.rounds.length, 1, 'not looked at again in the busy loop');
    h.held.push(batch('h2'));
    h.worker.fundsChanged('acc_h');
    await until(() => h.submitted.includes('h2'));
    await h.worker.stop();
  });
});
