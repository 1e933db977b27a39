import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fundsHoldRule } from './funds-hold-rule.js';

describe('fundsHoldRule (the held accounts and their rule, for the claim loops)', () => {
  const rule = fundsHoldRule({
    accounts: new Map([
      ['acc_b', { thresholdPaise: 1_000n, feePaise: 590n, maxHoldMs: 3_600_000 }],
      ['acc_a', { thresholdPaise: 0n, feePaise: 0n, maxHoldMs: 60_000 }],
    ]),
  });
  const now = new Date('2026-11-28T00:00:00Z');
  const facts = { reading: { available: 5_000n, readAt: now }, committed: 0n, now };

  it('lists the held accounts', () => {
    assert.deepEqual(rule.accountIds, ['acc_a', 'acc_b']);
  });

  it("applies the account's threshold", () => {
    const c = [{ id: '1', amount: 4_500n }];
    assert.equal(rule.decide('acc_a')(c, facts)[0]?.verdict, 'send');
    assert.equal(rule.decide('acc_b')(c, facts)[0]?.verdict, 'hold', 'room 5000 - 1000 < 4500');
  });

  it("applies the account's maximum hold", () => {
    const c = [{ id: '1', amount: 9_999n, heldSince: new Date(now.getTime() - 120_000) }];
    assert.equal(rule.decide('acc_a')(c, facts)[0]?.verdict, 'reject');
    assert.equal(rule.decide('acc_b')(c, facts)[0]?.verdict, 'hold');
  });

  it("gives the account's fee per transfer (the ledger counts it with each transfer)", () => {
    assert.equal(rule.fee('acc_a'), 0n);
    assert.equal(rule.fee('acc_b'), 590n);
  });

  it('refuses an account not held', () => {
    assert.throws(() => rule.decide('acc_z'), /acc_z/);
    assert.throws(() => rule.fee('acc_z'), /acc_z/);
  });
});
