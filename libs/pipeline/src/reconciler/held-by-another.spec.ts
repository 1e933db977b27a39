import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutStatus } from '#contracts';
import { type PayoutRow } from '#ledger';
import { mapProviderStatus, type PayoutFound } from '#provider-client/testing';
import { payoutRow } from '#test-support';
import { type CheckRules, decideOnAnswer } from './decide-check.js';
import { HELD_BY_ANOTHER } from './held-by-another.js';

const rules: CheckRules = {
  schedule: [10, 20, 30],
  maxSendAttempts: 3,
  reversalWatch: [100, 200],
  failedWatch: [300, 400, 500],
  notFoundSettleMs: 1_000,
  refusedResendSettleMs: 3_600_000,
  notReceivedFailsAccounts: new Set<string>(),
};

// Issue 29, defect 2: the provider holds one transfer per id. A single payout whose send it
// refused as a repeat ("already exists") may find, on the status endpoint, another transfer with
// that id (a batch entry, a transfer made outside this service): what the provider holds is
// compared with the row, and a mismatch goes to a person, never SUCCESS nor FAILED.
const refusedAsRepeat = (over: Partial<PayoutRow> = {}) =>
  payoutRow({
    status: 'UNKNOWN',
    reason: 'already_exists_at_provider',
    kind: 'standard_transfer',
    amount: '10.00',
    request: { beneId: 'BENE1', amount: '10.00' },
    ...over,
  });
const holds = (status: string, more: Partial<PayoutFound> = {}) => ({
  found: true as const,
  answer: { status: mapProviderStatus(status), raw: status, ...more } as PayoutFound,
});
const HELD = { do: 'attention', reason: HELD_BY_ANOTHER } as const;
assert.equal(HELD_BY_ANOTHER, 'transfer_id_held_by_another_transfer');

describe('decideOnAnswer: the transfer the provider holds under the id is not this payout', () => {
  const cases: ReadonlyArray<[string, PayoutRow, ReturnType<typeof holds>]> = [
    [
      "another amount, SUCCESS with its UTR: not adopted (the entry's success)",
      refusedAsRepeat(),
      holds('SUCCESS', { amount: '5.00', utr: 'UTR_ENTRY' }),
    ],
    [
      'another amount, REJECTED: not a failure of this payout',
      refusedAsRepeat(),
      holds('REJECTED', { amount: '5.00' }),
    ],
    [
      'another beneficiary, same amount',
      refusedAsRepeat(),
      holds('SUCCESS', { amount: '10', beneId: 'BENE2' }),
    ],
    [
      "another provider id than the one the row holds (v2's cf_transfer_id)",
      refusedAsRepeat({ status: 'PENDING', reason: null, svcTransferId: '700', providerApi: 'v2' }),
      holds('SUCCESS', { amount: '10.00', svcTransferId: '701' }),
    ],
    [
      "another reference than the row's (v1)",
      refusedAsRepeat({ status: 'PENDING', reason: null, referenceId: '42' }),
      holds('FAILED', { referenceId: '43' }),
    ],
    [
      'a pending answer about another amount: a person, not more waiting on it',
      refusedAsRepeat(),
      holds('PENDING', { amount: '5.00' }),
    ],
  ];
  for (const [name, r, check] of cases) {
    it(name, () => assert.deepEqual(decideOnAnswer(r, check, false, rules), HELD));
  }

  const same: ReadonlyArray<[string, PayoutRow, ReturnType<typeof holds>, PayoutStatus]> = [
    [
      'the same amount (written otherwise) and beneficiary: applied',
      refusedAsRepeat(),
      holds('SUCCESS', { amount: '10', beneId: 'BENE1', utr: 'U1' }),
      'SUCCESS',
    ],
    ['an answer without amount nor ids: applied as before', refusedAsRepeat(), holds('FAILED'), 'FAILED'],
    [
      'a beneficiary the row does not name (a direct transfer): not compared',
      refusedAsRepeat({ kind: 'direct_transfer', request: { amount: '10.00' } }),
      holds('SUCCESS', { amount: '10.00', beneId: 'AUTO_1' }),
      'SUCCESS',
    ],
  ];
  for (const [name, r, check, to] of same) {
    it(name, () => {
      const step = decideOnAnswer(r, check, false, rules);
      assert.equal(step.do, 'move');
      assert.equal(step.do === 'move' && step.to, to);
    });
  }
});
