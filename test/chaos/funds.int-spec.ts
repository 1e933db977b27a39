import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  commandPaise,
  fifoViolations,
  FUNDS_EDGE_WINDOW_MS,
  fundingStep,
  heldOutcomeViolations,
  paiseOf,
  SandboxClockMap,
  unexcusedRefusals,
  type EdgeFacts,
  type HeldRow,
} from './funds.js';

/** The chaos run's checks of hold for funds (issue 32): each way a hold can go wrong is seen. */
const row = (over: Partial<HeldRow> & { id: string }): HeldRow => ({
  kind: 'payout',
  amount: 100_00n,
  createdAt: 0,
  heldSince: null,
  sentAt: null,
  status: 'SUCCESS',
  rejectedReason: null,
  rejectedAt: null,
  ...over,
});

describe('chaos: hold for funds checks', () => {
  it('amounts in paise, never through a float; a batch asks for its entries', () => {
    assert.equal(paiseOf('0.07'), 7n);
    assert.equal(paiseOf('4999.9'), 499_990n);
    assert.equal(paiseOf('12'), 1_200n);
    assert.throws(() => paiseOf('1.234'));
    assert.equal(commandPaise({ data: { amount: '10.50' } }), 1_050n);
    assert.equal(commandPaise({ data: { entries: [{ amount: '1.00' }, { amount: '2.25' }] } }), 325n);
    // 15 % of Rs. 4,000 over 12 fundings of 5 s.
    assert.equal(fundingStep(400_000n, 60_000), 5_000n);
  });

  describe('held outcomes', () => {
    const none = () => 0;
    it('sent after its hold, or expired and never at the provider: no violation', () => {
      const rows = [
        row({ id: 'a', heldSince: 10, sentAt: 20 }),
        row({
          id: 'b',
          heldSince: 10,
          status: 'REJECTED',
          rejectedReason: 'funds_hold_expired',
          rejectedAt: 70,
        }),
        row({ id: 'c', sentAt: 5 }),
      ];
      assert.deepEqual(heldOutcomeViolations(rows, none), []);
    });
    it('one still held, one expired that reached the provider, one that left the hold unsent otherwise', () => {
      const v = heldOutcomeViolations(
        [
          row({ id: 'a', heldSince: 10, status: 'HELD_FOR_FUNDS' }),
          row({ id: 'b', heldSince: 10, status: 'REJECTED', rejectedReason: 'funds_hold_expired' }),
          row({ id: 'c', heldSince: 10, status: 'FAILED' }),
          row({ id: 'd', status: 'REJECTED', rejectedReason: 'funds_hold_expired' }),
          row({ id: 'e', heldSince: 30, sentAt: 20 }),
        ],
        (x) => (x.id === 'b' ? 1 : 0),
      );
      assert.equal(v.length, 5, v.join('\n'));
      assert.match(v[0] ?? '', /still HELD_FOR_FUNDS/);
      assert.match(v[1] ?? '', /received 1 initiations/);
      assert.match(v[2] ?? '', /unsent as FAILED/);
      assert.match(v[3] ?? '', /without ever being held/);
      assert.match(v[4] ?? '', /sent before it was held/);
    });
  });

  describe('oldest first where they fit', () => {
    it('a younger, smaller one overtakes an older, larger one held meanwhile: allowed', () => {
      const r = fifoViolations([
        row({ id: 'old', amount: 500_00n, createdAt: 0, heldSince: 100, sentAt: 9_000 }),
        row({ id: 'young', amount: 100_00n, createdAt: 2_000, heldSince: 2_100, sentAt: 5_000 }),
      ]);
      assert.deepEqual(r, { pairs: 1, violations: [] });
    });
    it('a younger one no smaller sent while the older stayed held: a violation (also against an expired one)', () => {
      const r = fifoViolations([
        row({ id: 'old', amount: 100_00n, createdAt: 0, heldSince: 100, sentAt: 9_000 }),
        row({
          id: 'old2',
          amount: 50_00n,
          createdAt: 500,
          heldSince: 600,
          status: 'REJECTED',
          rejectedReason: 'funds_hold_expired',
          rejectedAt: 61_000,
        }),
        row({ id: 'young', amount: 100_00n, createdAt: 2_000, heldSince: 2_100, sentAt: 5_000 }),
      ]);
      assert.equal(r.pairs, 2);
      assert.equal(r.violations.length, 2, r.violations.join('\n'));
    });
    it('not judged: the older one was sent first, was not held yet, or was created within the margin; batches apart', () => {
      const r = fifoViolations([
        row({ id: 'first', amount: 10_00n, createdAt: 0, heldSince: 100, sentAt: 1_000 }),
        row({ id: 'late', amount: 10_00n, createdAt: 100, heldSince: 6_000, sentAt: 7_000 }),
        row({ id: 'close', amount: 10_00n, createdAt: 4_500, heldSince: 4_600, sentAt: 8_000 }),
        row({ id: 'b', kind: 'batch', amount: 1_00n, createdAt: 3_000, heldSince: 3_100, sentAt: 3_500 }),
        row({ id: 'young', amount: 10_00n, createdAt: 5_000, heldSince: 5_100, sentAt: 5_500 }),
      ]);
      assert.deepEqual(r, { pairs: 0, violations: [] });
    });
  });

  describe('refusals for insufficient balance', () => {
    const facts = (over: Partial<EdgeFacts> = {}): EdgeFacts => ({
      sentAt: new Map([
        ['x', 10_000],
        ['y', 9_000],
      ]),
      takenAt: new Map([['y', 9_010]]),
      readings: [5_000, 8_000],
      batchOf: new Map(),
      ...over,
    });
    const refusal = {
      transferId: 'x',
      endpoint: 'directTransfer',
      at: 10_020,
      debit: '500.00',
      available: '10.00',
    };

    it('with no call in the air at a reading near it: a violation', () => {
      const r = unexcusedRefusals([refusal], facts());
      assert.equal(r.excused, 0);
      assert.match(r.violations[0] ?? '', /no call in the air/);
    });
    it('another payout sent before a reading and taken after it (a late apply, a kill before the call): excused', () => {
      const r = unexcusedRefusals(
        [refusal],
        facts({
          sentAt: new Map([
            ['x', 10_000],
            ['y', 7_900],
          ]),
          takenAt: new Map([['y', 8_050]]),
        }),
      );
      assert.equal(r.excused, 1);
      assert.deepEqual(r.violations, []);
      assert.match(r.why[0] ?? '', /^x: y in the air 0\.1 s/);
    });
    it('the refused payout itself in the air across a reading (sent, killed, re-sent) and one sent after that reading taken first: excused', () => {
      const withZ = facts({
        sentAt: new Map([
          ['x', 10_000],
          ['z', 12_500],
        ]),
        takenAt: new Map([['z', 12_600]]),
        readings: [12_000],
      });
      const r = unexcusedRefusals([{ ...refusal, at: 16_000 }], withZ);
      assert.equal(r.excused, 1);
      assert.match(
        r.why[0] ?? '',
        /^x: itself in the air 6\.0 s across a reading, and z, sent after it, taken first/,
      );
      // Nothing sent after that reading spent its money: X's own flight explains nothing.
      const alone = unexcusedRefusals([{ ...refusal, at: 16_000 }], facts({ readings: [12_000] }));
      assert.equal(alone.violations.length, 1);
    });
    it('a call in the air for a whole reading interval near it excuses it, though no look saw the reading', () => {
      const r = unexcusedRefusals(
        [refusal],
        facts({
          sentAt: new Map([
            ['x', 10_000],
            ['y', 7_000],
          ]),
          takenAt: new Map([['y', 8_500]]),
          readings: [],
        }),
      );
      assert.equal(r.excused, 1);
      const short = unexcusedRefusals(
        [refusal],
        facts({
          sentAt: new Map([
            ['x', 10_000],
            ['y', 7_000],
          ]),
          takenAt: new Map([['y', 7_900]]),
          readings: [],
        }),
      );
      assert.equal(short.excused, 0);
    });
    it('a reading with a call in the air long before the sending does not excuse it', () => {
      const r = unexcusedRefusals(
        [{ ...refusal, at: 40_020 }],
        facts({
          sentAt: new Map([
            ['x', 40_000],
            ['y', 7_900],
          ]),
          takenAt: new Map([['y', 8_050]]),
          readings: [8_000, 39_000],
        }),
      );
      assert.equal(r.violations.length, 1);
      assert.ok(40_000 - FUNDS_EDGE_WINDOW_MS > 8_050);
    });
    it('a batch entry is judged by its batch; one never sent by a funds-aware claim is a violation', () => {
      const entry = { ...refusal, transferId: 'bE0', endpoint: 'requestBatchTransfer' };
      const viaBatch = unexcusedRefusals(
        [entry],
        facts({
          sentAt: new Map([
            ['b', 7_900],
            ['z', 8_100],
          ]),
          takenAt: new Map([
            ['b', 8_400],
            ['z', 8_200],
          ]),
          batchOf: new Map([['bE0', 'b']]),
        }),
      );
      // The batch sent, its entries taken when processed (8.4 s): a reading at 8.0 s still showed
      // their money, and z, sent on it, took it first.
      assert.equal(viaBatch.excused, 1, viaBatch.violations.join('\n'));
      const unsent = unexcusedRefusals([{ ...refusal, transferId: 'z' }], facts());
      assert.match(unsent.violations[0] ?? '', /never sent by a funds-aware claim/);
    });
  });

  it('the sandbox clock in wall time, across an advance', () => {
    const m = new SandboxClockMap();
    m.add(1_000, 0);
    m.add(2_000, 60_000);
    assert.equal(m.toWall(1_500), 1_500);
    assert.equal(m.toWall(62_500), 2_500);
  });
});
