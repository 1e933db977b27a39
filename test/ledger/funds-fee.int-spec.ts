import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ACC, fundsFixture } from './funds-fixture.js';

/*
 * The fee per transfer in the funds-aware claim (FUNDS_HOLD's `fee`; ADR 0027, amendment of
 * session 22), on real Postgres: the provider takes its fee from the balance besides the amount,
 * so a round counts what each transfer takes (amount and fee; a batch: its total and a fee per
 * entry) in the candidates, in what the reading may not include (in doubt, taken since), in what a
 * send adds to the reading row, and in the fast path's running total. Each test fails with the fee
 * left out of the place it names.
 */

describe('the funds-aware claim counts the fee per transfer (real Postgres)', () => {
  const { f, room, round, pay, batch, reading, answer, committed, watchingReads } = fundsFixture();
  const FEE = 500n; // 5.00 per transfer

  const sentTotal = async (): Promise<string> =>
    (
      await f.pool.query<{ s: string }>(
        `SELECT sent_total::text AS s FROM balance_reading WHERE account_id = $1`,
        [ACC],
      )
    ).rows[0]!.s;
  const statuses = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      (
        await f.pool.query<{ transfer_id: string; status: string }>(
          `SELECT transfer_id, status FROM payout WHERE account_id = $1`,
          [ACC],
        )
      ).rows.map((r) => [r.transfer_id, r.status]),
    );

  it('a payout that fits by its amount alone but not with its fee is held; smaller ones still go', async () => {
    await reading('100.00', 0, FEE);
    await pay('e_60', '60.00'); // takes 65.00: fits, 35.00 left
    await pay('e_40', '40.00'); // takes 45.00: held (by amount alone 40.00 would fit exactly)
    await pay('e_30', '30.00'); // takes 35.00: fits, 0 left
    const r = await f.ledger.claimWithFunds(round({ fee: FEE }));
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['e_60', 'e_30'],
    );
    assert.equal(r.held, 1);
    assert.deepEqual(await statuses(), { e_60: 'SUBMITTING', e_40: 'HELD_FOR_FUNDS', e_30: 'SUBMITTING' });
    // The send added what they take to the reading row; the exact sum counts the same.
    assert.equal(await sentTotal(), '100.00');
    assert.equal(await committed(FEE), 10_000n);
    // A next round finds no room for the held one (0 left), as the provider would refuse it.
    const next = await f.ledger.claimWithFunds(round({ fee: FEE }));
    assert.deepEqual(next.sent, []);
  });

  it('what the reading may not include counts the fee of each transfer: in doubt at the ask, and taken after it', async () => {
    await reading('1000.00', 0, FEE);
    await pay('d_1', '10.00');
    await pay('d_2', '20.00');
    await f.ledger.claimWithFunds(round({ fee: FEE }));
    // Both sent, not answered: in doubt, each with its fee.
    assert.equal(await committed(FEE), 4_000n);
    const ask = await f.readings.ask(f.pool, ACC, FEE);
    assert.deepEqual(ask.figures, { sentTotal: '40.00', inDoubt: '40.00' });
    // A reading asked now (in doubt at its ask: both count, with their fees) ...
    await f.readings.record(f.pool, ACC, '1000.00', '1000.00', ask);
    assert.equal(await committed(FEE), 4_000n);
    // ... and taken after it: still counted, with the fee.
    await answer('d_1', 'PENDING');
    await answer('d_2', 'SUCCESS');
    assert.equal(await committed(FEE), 4_000n);
    // Failed: given back (amount and fee), no longer counted.
    await answer('d_1', 'FAILED');
    assert.equal(await committed(FEE), 2_500n);
  });

  it('a batch takes its total and a fee per entry, held or sent whole', async () => {
    await reading('100.00', 0, FEE);
    await batch('fb_1', ['30.00', '30.00', '30.00']); // takes 90.00 + 3 x 5.00 = 105.00
    const held = await f.batchLedger.claimWithFunds(round({ fee: FEE }));
    assert.equal(held.sent.length, 0, 'by its total alone (90.00) it would fit');
    assert.equal(held.held, 1);
    await reading('105.00', 0, FEE);
    const sent = await f.batchLedger.claimWithFunds(round({ fee: FEE }));
    assert.deepEqual(
      sent.sent.map((b) => b.batchTransferId),
      ['fb_1'],
    );
    assert.equal(await sentTotal(), '105.00');
    assert.equal(await committed(FEE), 10_500n);
  });

  it('the fast path adds the fee to its running total', async () => {
    const { ledger, reads } = watchingReads();
    const r = () => round({ fee: FEE, room: room() });
    await reading('100.00', 0, FEE);
    await pay('g_20', '20.00'); // takes 25.00: the full way, remembered (75.00 left)
    assert.deepEqual(
      (await ledger.claimWithFunds(r())).sent.map((p) => p.transferId),
      ['g_20'],
    );
    assert.equal(reads(), 1);
    await pay('g_50', '50.00'); // takes 55.00: within the 75.00, sent without a read
    assert.deepEqual(
      (await ledger.claimWithFunds(r())).sent.map((p) => p.transferId),
      ['g_50'],
    );
    assert.equal(reads(), 1, 'the fast path sent it');
    assert.equal(await sentTotal(), '80.00');
    await pay('g_16', '16.00'); // takes 21.00 of the 20.00 left: by its amount alone it would fit
    const last = await ledger.claimWithFunds(r());
    assert.deepEqual(last.sent, []);
    assert.equal(last.held, 1, 'the full way held it');
    assert.ok(reads() >= 2, 'the fast path did not send it: the full way read');
  });
});
