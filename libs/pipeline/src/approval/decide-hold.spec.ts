import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defineSection, loadConfig } from '#config';
import { APPROVAL_VARS, approvalPolicies } from './approval.config.js';
import { type ApprovalRule, approvalPolicy } from './approval-policy.js';
import { decideHold, type HoldFacts } from './decide-hold.js';

const H = 3_600_000;
const policy = (...rules: ApprovalRule[]) => approvalPolicy({ accountId: 'acc', rules, expiryMs: 24 * H });
const base = { approvers: 1, role: 'approver' as const };
const payout = (amount: bigint, f: Partial<HoldFacts> = {}): HoldFacts => ({ amount, beneIds: ['B1'], ...f });

describe('decideHold: each rule', () => {
  it('amount_at_least: at the threshold holds, one paisa under does not', () => {
    const p = policy({ ...base, rule: 'amount_at_least', amount: 5_000_000n });
    assert.equal(decideHold(p, payout(4_999_999n)), undefined);
    const d = decideHold(p, payout(5_000_000n));
    assert.deepEqual(d?.rules, [{ rule: 'amount_at_least', detail: 'amount 50000.00 >= 50000.00' }]);
    assert.equal(d?.approvalsNeeded, 1);
    assert.equal(d?.role, 'approver');
  });

  it('amount_at_least applies to each entry of a batch (its largest)', () => {
    const p = policy({ ...base, rule: 'amount_at_least', amount: 1_000n });
    assert.equal(decideHold(p, { amount: 999n, batchTotal: 100_000n, beneIds: [] }), undefined);
    assert.match(
      decideHold(p, { amount: 1_000n, batchTotal: 1_000n, beneIds: [] })!.rules[0]!.detail,
      /an entry/,
    );
  });

  it('batch_total_at_least: a batch at the total waits whole; a single payout is not a batch', () => {
    const p = policy({ ...base, rule: 'batch_total_at_least', amount: 10_000n });
    assert.equal(decideHold(p, { amount: 5_000n, batchTotal: 9_999n, beneIds: [] }), undefined);
    assert.equal(
      decideHold(p, { amount: 5_000n, batchTotal: 10_000n, beneIds: [] })?.rules[0]?.rule,
      'batch_total_at_least',
    );
    assert.equal(decideHold(p, payout(1_000_000n)), undefined);
  });

  it('first_payout_to_beneficiary: holds when a beneficiary it pays has no earlier payout', () => {
    const p = policy({ ...base, rule: 'first_payout_to_beneficiary' });
    assert.equal(decideHold(p, payout(100n, { firstTo: new Set() })), undefined);
    assert.equal(decideHold(p, payout(100n, { firstTo: new Set(['B2']) })), undefined, 'another beneficiary');
    assert.deepEqual(decideHold(p, payout(100n, { firstTo: new Set(['B1']) }))?.rules, [
      { rule: 'first_payout_to_beneficiary', detail: 'no earlier payout to B1' },
    ]);
    assert.equal(
      decideHold(p, payout(100n, { beneIds: [], firstTo: new Set(['B1']) })),
      undefined,
      'no beneId',
    );
  });

  it('beneficiary_changed_within: holds inside the period, and whoever changed it may not approve', () => {
    const p = policy({ ...base, rule: 'beneficiary_changed_within', withinMs: 72 * H });
    const changes = [
      { beneId: 'B1', operatorId: 'olga', ageMs: 2 * H },
      { beneId: 'B1', operatorId: null, ageMs: 3 * H },
    ];
    const d = decideHold(p, payout(100n, { changes }));
    assert.equal(d?.rules[0]?.rule, 'beneficiary_changed_within');
    assert.deepEqual(d?.excluded, ['olga']);
    assert.equal(
      decideHold(p, payout(100n, { changes: [{ beneId: 'B1', operatorId: 'olga', ageMs: 72 * H }] })),
      undefined,
    );
    assert.equal(
      decideHold(p, payout(100n, { changes: [{ beneId: 'B9', operatorId: 'olga', ageMs: H }] })),
      undefined,
    );
  });

  it('daily_sum_above: strictly above the cap, per account or per beneficiary', () => {
    const acc = policy({ ...base, rule: 'daily_sum_above', scope: 'account', cap: 10_000n });
    assert.equal(decideHold(acc, payout(100n, { accountDaily: 10_000n })), undefined, 'at the cap');
    assert.match(
      decideHold(acc, payout(100n, { accountDaily: 10_001n }))!.rules[0]!.detail,
      /account's sum today 100.01 > 100.00/,
    );
    const bene = policy({ ...base, rule: 'daily_sum_above', scope: 'beneficiary', cap: 10_000n });
    assert.equal(decideHold(bene, payout(100n, { beneDaily: new Map([['B1', 10_000n]]) })), undefined);
    assert.match(
      decideHold(bene, payout(100n, { beneDaily: new Map([['B1', 20_000n]]) }))!.rules[0]!.detail,
      /B1's sum today 200.00/,
    );
    assert.equal(
      decideHold(bene, payout(100n, { accountDaily: 1_000_000n })),
      undefined,
      'account sum is not the rule',
    );
  });

  it('several rules: all caught are recorded; the most approvers and the highest role win', () => {
    const p = policy(
      { rule: 'amount_at_least', amount: 100n, approvers: 2, role: 'operator' },
      { rule: 'first_payout_to_beneficiary', approvers: 1, role: 'approver' },
    );
    const d = decideHold(p, payout(100n, { firstTo: new Set(['B1']) }));
    assert.deepEqual(
      d?.rules.map((r) => r.rule),
      ['amount_at_least', 'first_payout_to_beneficiary'],
    );
    assert.equal(d?.approvalsNeeded, 2);
    assert.equal(d?.role, 'approver');
  });
});

describe('approval policy configuration', () => {
  const load = (env: Record<string, string>) =>
    loadConfig([defineSection('pipeline', APPROVAL_VARS)], env)[0];

  it('none by default: no account has a policy', () => {
    assert.equal(approvalPolicies(load({})).size, 0);
  });

  it('parses every rule, with defaults, and versions the policy by its canonical form', () => {
    const json = JSON.stringify([
      {
        accountId: 'default',
        rules: [
          { rule: 'amount_at_least', amount: '50000' },
          { rule: 'batch_total_at_least', amount: '100000.00', approvers: 2 },
          { rule: 'first_payout_to_beneficiary', role: 'operator' },
          { rule: 'beneficiary_changed_within', period: '72h' },
          { rule: 'daily_sum_above', scope: 'beneficiary', cap: '200000.5' },
        ],
      },
    ]);
    const p = approvalPolicies(load({ APPROVAL_POLICIES: json })).get('default')!;
    assert.equal(p.rules.length, 5);
    assert.deepEqual(p.rules[0], {
      rule: 'amount_at_least',
      amount: 5_000_000n,
      approvers: 1,
      role: 'approver',
    });
    assert.equal(p.expiryMs, 24 * H);
    assert.match(p.version, /^sha256:[0-9a-f]{16}$/);
    // The same policy written otherwise ("50000.00" for "50000") is the same version; another is not.
    const same = json.replace('"50000"', '"50000.00"');
    assert.equal(approvalPolicies(load({ APPROVAL_POLICIES: same })).get('default')!.version, p.version);
    const other = json.replace('"50000"', '"50001"');
    assert.notEqual(approvalPolicies(load({ APPROVAL_POLICIES: other })).get('default')!.version, p.version);
  });

  it('refuses a bad policy at boot with a clear message: a float-ish amount, an unknown rule, two policies of one account', () => {
    const bad = [
      [{ accountId: 'a', rules: [{ rule: 'amount_at_least', amount: '1.005' }] }],
      [{ accountId: 'a', rules: [{ rule: 'amount_at_least', amount: 1000 }] }],
      [{ accountId: 'a', rules: [{ rule: 'velocity' }] }],
      [{ accountId: 'a', rules: [] }],
      [{ accountId: 'a', rules: [{ rule: 'first_payout_to_beneficiary', approvers: 0 }] }],
      [
        { accountId: 'a', rules: [{ rule: 'first_payout_to_beneficiary' }] },
        { accountId: 'a', rules: [{ rule: 'first_payout_to_beneficiary' }] },
      ],
    ];
    for (const b of bad)
      assert.throws(
        () => load({ APPROVAL_POLICIES: JSON.stringify(b) }),
        /APPROVAL_POLICIES/,
        JSON.stringify(b),
      );
  });
});
