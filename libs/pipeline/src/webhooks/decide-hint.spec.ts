import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutStatus } from '#contracts';
import { type PayoutRow, type WebhookFields } from '#ledger';
import { decideHint, type HintStep, onContradiction } from './decide-hint.js';

function row(status: PayoutStatus, over: Partial<PayoutRow> = {}): PayoutRow {
  const at = new Date(0);
  return {
    id: '1',
    accountId: 'a',
    transferId: 't',
    kind: 'direct_transfer',
    requestHash: 'h',
    request: {},
    requestSecrets: null,
    lastError: null,
    amount: '10.00',
    status,
    version: 3,
    attempt: 1,
    statusCode: null,
    reason: null,
    referenceId: '42',
    svcTransferId: null,
    utr: null,
    requestId: null,
    nextCheckAt: null,
    checkCount: 0,
    createdAt: at,
    updatedAt: at,
    stateChangedAt: at,
    ...over,
  };
}

// Every row of the decision table: (row status, event, fields) -> step.
const CASES: ReadonlyArray<[string, PayoutStatus, string, WebhookFields, HintStep]> = [
  [
    'consistent success',
    'PENDING',
    'TRANSFER_SUCCESS',
    { referenceId: '42', amount: '10' },
    { do: 'apply', to: 'SUCCESS' },
  ],
  ['consistent failure', 'PENDING', 'TRANSFER_FAILED', {}, { do: 'apply', to: 'FAILED' }],
  ['rejected', 'PENDING', 'TRANSFER_REJECTED', {}, { do: 'apply', to: 'REJECTED' }],
  ['reversal after success', 'SUCCESS', 'TRANSFER_REVERSED', {}, { do: 'apply', to: 'REVERSED' }],
  ['reversal before any success', 'PENDING', 'TRANSFER_REVERSED', {}, { do: 'recheck', why: 'odd_order' }],
  [
    'amount differs',
    'PENDING',
    'TRANSFER_SUCCESS',
    { amount: '10.01' },
    { do: 'recheck', why: 'amount_mismatch' },
  ],
  [
    'amount unreadable',
    'PENDING',
    'TRANSFER_SUCCESS',
    { amount: 'ten' },
    { do: 'recheck', why: 'amount_mismatch' },
  ],
  [
    'reference differs',
    'PENDING',
    'TRANSFER_SUCCESS',
    { referenceId: '43' },
    { do: 'recheck', why: 'reference_mismatch' },
  ],
  [
    'status field disagrees',
    'PENDING',
    'TRANSFER_SUCCESS',
    { status: 'FAILED' },
    { do: 'recheck', why: 'status_mismatch' },
  ],
  [
    'status field disagrees, settled row',
    'FAILED',
    'TRANSFER_SUCCESS',
    { status: 'FAILED' },
    { do: 'nothing', why: 'no_state' },
  ],
  ['unknown row', 'UNKNOWN', 'TRANSFER_SUCCESS', {}, { do: 'recheck', why: 'unclear_row' }],
  ["a person's row", 'REQUIRES_ATTENTION', 'TRANSFER_SUCCESS', {}, { do: 'reopen' }],
  ['still submitting', 'SUBMITTING', 'TRANSFER_SUCCESS', {}, { do: 'wait' }],
  ['not sent yet', 'RECEIVED', 'TRANSFER_FAILED', {}, { do: 'wait' }],
  ['same state', 'SUCCESS', 'TRANSFER_SUCCESS', {}, { do: 'nothing', why: 'same_state' }],
  // A terminal state the webhook contradicts (ADR 0018): never applied, never dropped either.
  [
    'contradiction: failed after success',
    'SUCCESS',
    'TRANSFER_FAILED',
    {},
    { do: 'contradicted', observed: 'FAILED' },
  ],
  [
    'contradiction: rejected after success',
    'SUCCESS',
    'TRANSFER_REJECTED',
    {},
    { do: 'contradicted', observed: 'REJECTED' },
  ],
  [
    'contradiction: success after failure',
    'FAILED',
    'TRANSFER_SUCCESS',
    {},
    { do: 'contradicted', observed: 'SUCCESS' },
  ],
  [
    'contradiction: success after rejection',
    'REJECTED',
    'TRANSFER_SUCCESS',
    {},
    { do: 'contradicted', observed: 'SUCCESS' },
  ],
  [
    'backwards: reversal after failure',
    'FAILED',
    'TRANSFER_REVERSED',
    {},
    { do: 'nothing', why: 'backwards' },
  ],
  [
    'backwards: success after reversal',
    'REVERSED',
    'TRANSFER_SUCCESS',
    {},
    { do: 'nothing', why: 'backwards' },
  ],
  ['acknowledged after success', 'SUCCESS', 'TRANSFER_ACKNOWLEDGED', {}, { do: 'nothing', why: 'no_state' }],
  [
    'acknowledged before success',
    'PENDING',
    'TRANSFER_ACKNOWLEDGED',
    {},
    { do: 'recheck', why: 'odd_order' },
  ],
  ['not a transfer event', 'PENDING', 'CREDIT_CONFIRMATION', {}, { do: 'nothing', why: 'no_state' }],
  ['a prototype key is no event', 'PENDING', 'constructor', {}, { do: 'nothing', why: 'no_state' }],
];

describe('decideHint', () => {
  for (const [name, status, event, fields, step] of CASES) {
    it(name, () => assert.deepEqual(decideHint(row(status), event, fields), step));
  }

  it('a row without a referenceId takes a webhook with one', () => {
    assert.deepEqual(
      decideHint(row('PENDING', { referenceId: null }), 'TRANSFER_SUCCESS', { referenceId: '9' }),
      {
        do: 'apply',
        to: 'SUCCESS',
      },
    );
  });

  it('a contradicting webhook: a status check where the kind has one; raised alone only by a v2 (body-signed) webhook', () => {
    assert.equal(onContradiction('internal_transfer', 'v1'), 'check');
    assert.equal(onContradiction('internal_transfer', 'v2'), 'check');
    assert.equal(onContradiction('validated_upi_payout', 'v2'), 'check');
    // No status endpoint: only a webhook whose signature binds it to its transfer is believed.
    assert.equal(onContradiction('self_withdrawal', 'v2'), 'raise');
    assert.equal(onContradiction('self_withdrawal', 'v1'), 'ignore');
  });
});
