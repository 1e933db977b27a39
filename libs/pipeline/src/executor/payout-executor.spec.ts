import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { type FundsClaimFacts, type FundsClaimRound, type PayoutLedger, type PayoutRow } from '#ledger';
import { type AppLogger } from '#observability';
import { payoutRow, strictFake } from '#test-support';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import { PayoutExecutor } from './payout-executor.js';

/** An executor over a fake ledger whose claims answer from `due`, and sends that end on demand. */
function harness(concurrency: number, idlePollMs = 60_000) {
  const due: PayoutRow[] = [];
  const claims: number[] = [];
  /** Payouts held for funds by accounts not in FUNDS_HOLD, and each look for them (its limit). */
  const unheld: PayoutRow[] = [];
  const unheldLooks: Array<{ limit: number; held: unknown }> = [];
  const sends = new Map<string, () => void>();
  const errors: string[] = [];
  let failClaims = 0;
  const ledger = strictFake<PayoutLedger>('ledger', {
    claimForSubmission: async (_owner: string, _leaseMs: number, limit: number) => {
      claims.push(limit);
      if (failClaims > 0) {
        failClaims--;
        throw new Error('database away');
      }
      return due.splice(0, limit);
    },
    claimHeldOfUnheld: async (_owner: string, _leaseMs: number, limit: number, held: unknown) => {
      unheldLooks.push({ limit, held });
      return unheld.splice(0, limit);
    },
  });
  const submission = strictFake<PayoutSubmission>('submission', {
    run: (row: PayoutRow) => new Promise<void>((r) => sends.set(row.transferId, r)),
  });
  const logger = {
    error: (_o: object, msg: string) => errors.push(msg),
    info: () => undefined,
  } as unknown as AppLogger;
  const failed: string[] = [];
  const executor = new PayoutExecutor(
    { ledger, logger, workerMetrics: { failed: (w) => failed.push(w) } },
    { owner: 'o', concurrency, leaseMs: 1_000, idlePollMs },
    submission,
  );
  const failNext = (n: number) => (failClaims = n);
  return { executor, due, claims, sends, errors, failed, failNext, unheld, unheldLooks };
}

async function until(cond: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail('condition not reached');
    await delay(5);
  }
}

const row = (transferId: string) => payoutRow({ transferId, status: 'SUBMITTING' });

describe('PayoutExecutor loop', () => {
  it('claims only free slots, and claims again as soon as a send ends (not after the poll)', async () => {
    const h = harness(2);
    h.due.push(row('a'), row('b'), row('c'));
    h.executor.start();
    await until(() => h.sends.size === 2);
    await delay(30);
    assert.deepEqual(h.claims, [2], 'all slots busy: no claim');
    h.sends.get('a')!();
    await until(() => h.sends.has('c'));
    assert.deepEqual(h.claims, [2, 1], 'the freed slot is claimed at once');
    h.sends.get('b')!();
    h.sends.get('c')!();
    await h.executor.stop();
  });

  it('wake() (intake committed new payouts) ends the idle wait; stop() during it resolves at once', async () => {
    const h = harness(4);
    h.executor.start();
    await until(() => h.claims.length === 1);
    h.due.push(row('a'));
    h.executor.wake();
    await until(() => h.sends.has('a'));
    h.sends.get('a')!();
    await until(() => h.claims.length >= 3);
    await delay(20);
    const t0 = performance.now();
    await h.executor.stop();
    assert.ok(performance.now() - t0 < 1_000, 'stop() did not wait out the 60 s poll');
  });

  it('a failed claim backs off, is logged once for the streak and counted each time, then claims again', async () => {
    const h = harness(1);
    h.failNext(3);
    h.due.push(row('a'));
    h.executor.start();
    await until(() => h.sends.has('a'), 5_000);
    assert.equal(h.claims.length, 4);
    assert.deepEqual(h.errors, ['executor: claim failed; retrying']);
    assert.deepEqual(h.failed, ['executor', 'executor', 'executor']);
    h.sends.get('a')!();
    await h.executor.stop();
  });
});

/**
 * An executor with one account in FUNDS_HOLD over a fake ledger: the other accounts' claim answers
 * from `due`, the held account's funds-aware rounds from `heldDue` (sending what the slots allow,
 * slot-bound while more is left). Sends end at once unless `hold` is set.
 */
function heldHarness(concurrency: number, idlePollMs = 60_000) {
  const due: PayoutRow[] = [];
  const heldDue: PayoutRow[] = [];
  const claims: Array<{ limit: number; except: unknown }> = [];
  const rounds: Array<{ accountId: string; slots: number }> = [];
  /** The rule's room each round carried, asked of facts with 1,000.00 available and 300.00 committed. */
  const roomsSeen: Array<bigint | null | 'none'> = [];
  const sent: string[] = [];
  /** What the held account's rounds say of its room: short (something held) or not. */
  const room = { short: false };
  const ledger = strictFake<PayoutLedger>('ledger', {
    claimForSubmission: async (...args: unknown[]) => {
      claims.push({ limit: args[2] as number, except: args[3] });
      return due.splice(0, args[2] as number);
    },
    claimHeldOfUnheld: async () => [],
    claimWithFunds: async (r: FundsClaimRound) => {
      rounds.push({ accountId: r.accountId, slots: r.slots });
      roomsSeen.push(
        r.room
          ? r.room({
              reading: { available: 100_000n, readAt: new Date(0) },
              committed: 30_000n,
              now: new Date(0),
            })
          : 'none',
      );
      const out = heldDue.splice(0, r.slots);
      return {
        locked: true,
        sent: out,
        held: 0,
        rejected: 0,
        slotBound: heldDue.length > 0,
        short: room.short,
      };
    },
  });
  const submission = strictFake<PayoutSubmission>('submission', {
    run: async (row: PayoutRow) => {
      sent.push(row.transferId);
      await delay(1);
    },
  });
  const logger = { error: () => undefined, info: () => undefined } as unknown as AppLogger;
  // The rule itself is the ledger's caller's (funds/fundsHoldRule); this fake ledger never asks it
  // to decide. Its room: available - committed - a threshold of 50.00, for acc_h only.
  const fundsHold = {
    accountIds: ['acc_h'],
    decide: () => () => [],
    room: (accountId: string) => (f: FundsClaimFacts) =>
      accountId === 'acc_h' && f.reading ? f.reading.available - f.committed - 5_000n : null,
    fee: () => 0n,
  };
  const executor = new PayoutExecutor(
    { ledger, logger, fundsHold },
    { owner: 'o', concurrency, leaseMs: 1_000, idlePollMs },
    submission,
  );
  return { executor, due, heldDue, claims, rounds, roomsSeen, sent, room };
}

describe('PayoutExecutor and payouts held for funds by accounts no longer in FUNDS_HOLD', () => {
  it('sends them as the claim does: looked for at start, then once per idle poll, never per claim', async () => {
    const h = harness(2, 60_000);
    h.unheld.push(row('u_1'));
    for (let i = 0; i < 30; i++) h.due.push(row(`o_${i}`));
    h.executor.start();
    await until(() => h.sends.has('u_1'));
    for (let i = 0; i < 200 && h.due.length > 0; i++) {
      for (const [, end] of h.sends) end();
      h.sends.clear();
      await delay(2);
    }
    assert.equal(h.due.length, 0, 'the others were claimed');
    assert.ok(h.claims.length > 10, 'many claims');
    assert.deepEqual(h.unheldLooks, [{ limit: 2, held: [] }], 'one look, at start: none per claim');
    assert.deepEqual(h.claims[0], 1, 'the claim took the slot the held one left');
    await h.executor.stop(true);
  });

  it('looks again at once while a look fills its limit, then after the idle poll', async () => {
    const h = harness(1, 40);
    h.unheld.push(row('u_1'), row('u_2'));
    h.executor.start();
    await until(() => h.sends.has('u_1'));
    h.sends.get('u_1')!();
    await until(() => h.sends.has('u_2'));
    h.sends.get('u_2')!();
    await delay(150);
    await h.executor.stop(true);
    assert.ok(h.unheldLooks.length >= 3 && h.unheldLooks.length <= 8, `${h.unheldLooks.length} looks`);
    assert.deepEqual(
      h.unheldLooks.slice(0, 3).map((l) => l.limit),
      [1, 1, 1],
      'again at once after a full look (u_1, u_2), then an empty one',
    );
  });
});

describe('PayoutExecutor with accounts in FUNDS_HOLD', () => {
  it('without a held account the claim is called as today (three arguments, no funds round)', async () => {
    const calls: unknown[][] = [];
    const ledger = strictFake<PayoutLedger>('ledger', {
      claimForSubmission: async (...args: unknown[]) => {
        calls.push(args);
        return [];
      },
      claimHeldOfUnheld: async () => [],
    });
    const executor = new PayoutExecutor(
      {
        ledger,
        logger: { error: () => undefined } as unknown as AppLogger,
        fundsHold: { accountIds: [], decide: () => () => [], room: () => () => null, fee: () => 0n },
      },
      { owner: 'o', concurrency: 2, leaseMs: 1_000, idlePollMs: 60_000 },
      strictFake<PayoutSubmission>('submission', {}),
    );
    executor.start();
    await until(() => calls.length === 1);
    await executor.stop();
    assert.deepEqual(calls, [['o', 1_000, 2]]);
  });

  it('leaves the held account out of the claim and looks at it once, not in the busy loop of the others', async () => {
    const h = heldHarness(2);
    for (let i = 0; i < 40; i++) h.due.push(row(`o_${i}`));
    h.executor.start();
    await until(() => h.sent.length === 40);
    await delay(30);
    await h.executor.stop();
    assert.ok(h.claims.every((c) => JSON.stringify(c.except) === '["acc_h"]'));
    assert.ok(h.claims.length > 10, 'the others were claimed many times');
    assert.equal(h.rounds.length, 1, 'the held account: one round (at start), none per busy step');
    // The round carries the account's room (the ledger's fast path spends it): 1,000 - 300 - 50.
    assert.deepEqual(h.roomsSeen, [65_000n]);
  });

  it('a new reading of the held account (fundsChanged) starts its round at once; of another account, none', async () => {
    const h = heldHarness(2);
    h.executor.start();
    await until(() => h.rounds.length === 1);
    h.executor.fundsChanged('acc_other');
    await delay(30);
    assert.equal(h.rounds.length, 1);
    h.heldDue.push(row('h_1'));
    h.executor.fundsChanged('acc_h');
    await until(() => h.sent.includes('h_1'));
    assert.equal(h.rounds.length, 2);
    await h.executor.stop();
  });

  it("intake's new payouts of a held account with room start its round at once; once its room ran short, not before the idle poll", async () => {
    const h = heldHarness(4);
    h.executor.start();
    await until(() => h.rounds.length === 1);
    h.heldDue.push(row('r_1'));
    h.executor.wake(['acc_other']);
    await delay(30);
    assert.equal(h.rounds.length, 1, "another account's payouts: no round of the held one");
    h.executor.wake(['acc_h']);
    await until(() => h.sent.includes('r_1'));
    // A round that holds something: new payouts of the account wait for the idle poll (60 s here).
    h.room.short = true;
    h.executor.wake(['acc_h']);
    await until(() => h.rounds.length === 3);
    h.heldDue.push(row('r_2'));
    h.executor.wake(['acc_h']);
    await delay(50);
    assert.equal(h.rounds.length, 3, 'no round per intake commit while it holds payouts');
    assert.ok(!h.sent.includes('r_2'));
    h.room.short = false;
    h.executor.fundsChanged('acc_h');
    await until(() => h.sent.includes('r_2'));
    await h.executor.stop();
  });

  it("new payouts of held accounts only do not re-run the other accounts' claim, which found nothing", async () => {
    const h = heldHarness(4);
    h.executor.start();
    await until(() => h.rounds.length === 1 && h.claims.length === 1);
    h.heldDue.push(row('o_1'));
    h.executor.wake(['acc_h']);
    await until(() => h.sent.includes('o_1'));
    await delay(30);
    assert.equal(h.claims.length, 1, 'no claim of the others for payouts of the held account');
    h.due.push(row('o_2'));
    h.executor.wake(['acc_other']);
    await until(() => h.sent.includes('o_2'));
    assert.equal(h.claims.length, 2);
    await h.executor.stop();
  });

  it("while a held account's rounds take every free slot, the others' claim that found nothing is not run ahead of them each poll", async () => {
    const h = heldHarness(2, 5);
    h.executor.start();
    try {
      await until(() => h.rounds.length >= 1 && h.claims.length >= 1);
      const before = h.claims.length;
      const t0 = Date.now();
      for (let i = 0; i < 200; i++) h.heldDue.push(row(`s_${i}`));
      h.executor.wake(['acc_h']);
      await until(() => h.heldDue.length === 0, 5_000);
      const took = Date.now() - t0;
      assert.ok(took > 50, `the drain took ${took} ms: many idle polls of 5 ms`);
      assert.ok(
        h.claims.length - before <= Math.ceil(took / 1_000),
        `${h.claims.length - before} claims of the others in ${took} ms (at most one a second)`,
      );
    } finally {
      await h.executor.stop();
    }
  });

  it('looks at the held account again after an idle poll (so a maximum hold ends without a new reading)', async () => {
    const h = heldHarness(2, 40);
    h.executor.start();
    await delay(2_600);
    await h.executor.stop();
    // Once per idle poll and no more often than HELD_LOOK_MIN_MS (1 s): at 0, 1 and 2 s.
    assert.equal(h.rounds.length, 3, `${h.rounds.length} rounds`);
  });

  it('under a saturating load of other accounts, a held account with room is not starved (rounds alternate)', async () => {
    const h = heldHarness(1);
    for (let i = 0; i < 30; i++) h.due.push(row(`o_${i}`));
    for (let i = 0; i < 10; i++) h.heldDue.push(row(`h_${i}`));
    h.executor.start();
    await until(() => h.sent.length === 40, 5_000);
    await h.executor.stop();
    const first20 = h.sent.slice(0, 20);
    const held = first20.filter((id) => id.startsWith('h_')).length;
    assert.ok(held >= 8, `the held account had ${held} of the first 20 slots`);
    assert.ok(20 - held >= 8, 'and the others theirs');
  });
});
