import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutStatus } from '#contracts';
import { type PayoutRow, type WebhookFields } from '#ledger';
import { webhookMeaning } from '#provider-client/testing';
import { decideHint, type HintContext, type HintStep, onContradiction } from './decide-hint.js';

/** A kept webhook's decision, its event read by the connector as the worker reads it. */
const decide = (r: PayoutRow, event: string, f: WebhookFields, ctx: HintContext): HintStep =>
  decideHint(r, webhookMeaning(event, f), f, ctx);

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

const V2: HintContext = { apiVersion: 'v2', checkable: true, reopenAllowed: true };

// Every row of the decision table: (row status, event, fields) -> step, for a v2 webhook about a
// payout sent on v2 whose kind has a status endpoint and that webhooks may still reopen.
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
  // Issue 29: REVERSED is a negative state upstream re-pays; SUCCESS after it contradicts it.
  [
    // Issue 29: REVERSED then SUCCESS is a contradiction (the money may have gone out again); the
    // worker checks the payout now, and only the provider's status answer raises it.
    'success after reversal: a contradiction to check',
    'REVERSED',
    'TRANSFER_SUCCESS',
    {},
    { do: 'contradicted', observed: 'SUCCESS' },
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

// A v1 webhook (its signature binds no value to its name), a kind with no status endpoint, and a
// payout webhooks have reopened often enough: (name, row status, event, fields, context) -> step.
const V1 = { ...V2, apiVersion: 'v1' } as const;
const UNCHECKABLE = { ...V2, checkable: false } as const;
const CONTEXT_CASES: ReadonlyArray<[string, PayoutStatus, string, WebhookFields, HintContext, HintStep]> = [
  [
    'v1 consistent failure: only asks',
    'PENDING',
    'TRANSFER_FAILED',
    {},
    V1,
    { do: 'recheck', why: 'v1_unbound' },
  ],
  [
    'v1 consistent success: only asks',
    'PENDING',
    'TRANSFER_SUCCESS',
    { referenceId: '42' },
    V1,
    { do: 'recheck', why: 'v1_unbound' },
  ],
  ['v1 rejected: only asks', 'PENDING', 'TRANSFER_REJECTED', {}, V1, { do: 'recheck', why: 'v1_unbound' }],
  [
    'v1 reversal after success: only asks',
    'SUCCESS',
    'TRANSFER_REVERSED',
    {},
    V1,
    { do: 'recheck', why: 'v1_unbound' },
  ],
  [
    'v1 reference differs: asks for that',
    'PENDING',
    'TRANSFER_FAILED',
    { referenceId: '43' },
    V1,
    { do: 'recheck', why: 'reference_mismatch' },
  ],
  [
    'v1 contradicting a terminal state: recorded as such (a check follows)',
    'SUCCESS',
    'TRANSFER_FAILED',
    {},
    V1,
    { do: 'contradicted', observed: 'FAILED' },
  ],
  ['v1 backwards: nothing', 'FAILED', 'TRANSFER_REVERSED', {}, V1, { do: 'nothing', why: 'backwards' }],
  ['v1 same state: nothing', 'FAILED', 'TRANSFER_FAILED', {}, V1, { do: 'nothing', why: 'same_state' }],
  ['v1 still submitting: waits', 'SUBMITTING', 'TRANSFER_FAILED', {}, V1, { do: 'wait' }],
  ["v1 a person's row: reopened", 'REQUIRES_ATTENTION', 'TRANSFER_FAILED', {}, V1, { do: 'reopen' }],
  [
    'v1 no status endpoint: nothing',
    'PENDING',
    'TRANSFER_FAILED',
    {},
    { ...V1, checkable: false },
    { do: 'nothing', why: 'no_status_endpoint' },
  ],
  [
    "no status endpoint, a person's row: not reopened",
    'REQUIRES_ATTENTION',
    'TRANSFER_SUCCESS',
    {},
    UNCHECKABLE,
    { do: 'nothing', why: 'no_status_endpoint' },
  ],
  [
    'no status endpoint, v2 consistent: applied',
    'PENDING',
    'TRANSFER_SUCCESS',
    {},
    UNCHECKABLE,
    { do: 'apply', to: 'SUCCESS' },
  ],
  [
    'no status endpoint, amount differs: nothing to ask',
    'PENDING',
    'TRANSFER_SUCCESS',
    { amount: '11' },
    UNCHECKABLE,
    { do: 'nothing', why: 'no_status_endpoint' },
  ],
  [
    'no status endpoint, unknown row: nothing to ask',
    'UNKNOWN',
    'TRANSFER_SUCCESS',
    {},
    UNCHECKABLE,
    { do: 'nothing', why: 'no_status_endpoint' },
  ],
  [
    'no status endpoint, acknowledged before success: nothing to ask',
    'PENDING',
    'TRANSFER_ACKNOWLEDGED',
    {},
    UNCHECKABLE,
    { do: 'nothing', why: 'no_status_endpoint' },
  ],
  [
    "reopen limit reached: a person's row stays",
    'REQUIRES_ATTENTION',
    'TRANSFER_SUCCESS',
    {},
    { ...V2, reopenAllowed: false },
    { do: 'nothing', why: 'reopen_limited' },
  ],
  [
    "a person's row, amount differs: reopened all the same (the check decides)",
    'REQUIRES_ATTENTION',
    'TRANSFER_SUCCESS',
    { amount: '11' },
    V2,
    { do: 'reopen' },
  ],
];

describe('decideHint', () => {
  for (const [name, status, event, fields, step] of CASES) {
    it(name, () => assert.deepEqual(decide(row(status, { providerApi: 'v2' }), event, fields, V2), step));
  }
  for (const [name, status, event, fields, ctx, step] of CONTEXT_CASES) {
    it(name, () =>
      assert.deepEqual(decide(row(status, { providerApi: ctx.apiVersion }), event, fields, ctx), step),
    );
  }

  it('a row without a referenceId takes a webhook with one', () => {
    assert.deepEqual(
      decide(
        row('PENDING', { referenceId: null, providerApi: 'v2' }),
        'TRANSFER_SUCCESS',
        { referenceId: '9' },
        V2,
      ),
      {
        do: 'apply',
        to: 'SUCCESS',
      },
    );
  });

  it('a contradicting webhook: a status check where the kind has one; raised alone only by a v2 (body-signed) webhook', () => {
    assert.equal(onContradiction({ kind: 'internal_transfer' }, 'v1'), 'check');
    assert.equal(onContradiction({ kind: 'internal_transfer' }, 'v2'), 'check');
    assert.equal(onContradiction({ kind: 'validated_upi_payout' }, 'v2'), 'check');
    // No status endpoint: only a webhook whose signature binds it to its transfer is believed.
    assert.equal(onContradiction({ kind: 'self_withdrawal' }, 'v2'), 'raise');
    assert.equal(onContradiction({ kind: 'self_withdrawal' }, 'v1'), 'ignore');
  });
});

// v2's cf_transfer_id (svcTransferId) is checked against the row's like the referenceId is, where
// both sides have it: (name, row's svcTransferId, fields) -> step.
const SVC_ID_CASES: ReadonlyArray<[string, string | null, WebhookFields, HintStep]> = [
  [
    'provider id matches',
    '1512355',
    { svcTransferId: '1512355', status: 'SUCCESS', statusCode: 'SENT_TO_BENEFICIARY', amount: '10' },
    { do: 'apply', to: 'SUCCESS' },
  ],
  [
    'provider id differs',
    '1512355',
    { svcTransferId: '1512356', status: 'SUCCESS' },
    { do: 'recheck', why: 'reference_mismatch' },
  ],
  ['row has no provider id', null, { svcTransferId: '1512356' }, { do: 'apply', to: 'SUCCESS' }],
  ['webhook has no provider id', '1512355', {}, { do: 'apply', to: 'SUCCESS' }],
];

describe('decideHint: the provider id of a v2 webhook', () => {
  for (const [name, svcTransferId, fields, expected] of SVC_ID_CASES) {
    it(name, () => {
      const r = row('PENDING', { referenceId: null, svcTransferId, providerApi: 'v2' });
      assert.deepEqual(decide(r, 'TRANSFER_SUCCESS', fields, V2), expected);
    });
  }
});

// Issue 29, defect 2: a webhook of the other API generation than the row was sent on. The provider
// has one namespace of transfer ids, so a webhook naming X may be about another transfer X (a batch
// entry X of a v2 batch, against a single payout X sent on v1). It is bound to the row only by the
// provider's own id (v1 referenceId, v2 cf_transfer_id) where the row has one; otherwise the
// provider is asked, and the webhook is never applied: (name, row, event, fields, context) -> step.
const V1_ROW = { providerApi: 'v1' } as const;
const CROSS_CASES: ReadonlyArray<[string, PayoutRow, string, WebhookFields, HintContext, HintStep]> = [
  [
    "a v2 entry's REJECTED, same amount, on a PENDING v1 payout without a reference: asks, never applies",
    row('PENDING', { ...V1_ROW, referenceId: null }),
    'TRANSFER_REJECTED',
    { svcTransferId: '900001', status: 'REJECTED', amount: '10' },
    V2,
    { do: 'recheck', why: 'other_generation' },
  ],
  [
    "a v2 webhook whose provider id is not the v1 row's reference: asks",
    row('PENDING', V1_ROW),
    'TRANSFER_REJECTED',
    { svcTransferId: '900001', amount: '10' },
    V2,
    { do: 'recheck', why: 'reference_mismatch' },
  ],
  [
    "a v2 webhook whose provider id is the v1 row's reference: bound, applied",
    row('PENDING', V1_ROW),
    'TRANSFER_SUCCESS',
    { svcTransferId: '42', amount: '10' },
    V2,
    { do: 'apply', to: 'SUCCESS' },
  ],
  [
    'a v2 webhook without a provider id on a v1 row: asks',
    row('PENDING', V1_ROW),
    'TRANSFER_FAILED',
    {},
    V2,
    { do: 'recheck', why: 'other_generation' },
  ],
  [
    'unbound, a reversal of a SUCCESS: a status check, never applied',
    row('SUCCESS', { ...V1_ROW, referenceId: null }),
    'TRANSFER_REVERSED',
    {},
    V2,
    { do: 'recheck', why: 'other_generation' },
  ],
  [
    'unbound, contradicting a FAILED: the watch check',
    row('FAILED', { ...V1_ROW, referenceId: null }),
    'TRANSFER_SUCCESS',
    {},
    V2,
    { do: 'contradicted', observed: 'SUCCESS' },
  ],
  [
    "unbound, a person's row: left to the person (not reopened)",
    row('REQUIRES_ATTENTION', { ...V1_ROW, referenceId: null }),
    'TRANSFER_SUCCESS',
    {},
    V2,
    { do: 'nothing', why: 'other_generation' },
  ],
  [
    'unbound, a kind without a status endpoint: nothing (a v2 webhook would be believed on its own)',
    row('PENDING', { ...V1_ROW, referenceId: null }),
    'TRANSFER_SUCCESS',
    {},
    UNCHECKABLE,
    { do: 'nothing', why: 'no_status_endpoint' },
  ],
  [
    'unbound, no status endpoint, contradicting: nothing, never raised',
    row('SUCCESS', { ...V1_ROW, referenceId: null }),
    'TRANSFER_FAILED',
    {},
    UNCHECKABLE,
    { do: 'nothing', why: 'no_status_endpoint' },
  ],
  [
    'a v1 webhook on a v2 row without its provider id: asks',
    row('PENDING', { providerApi: 'v2', referenceId: null, svcTransferId: '77' }),
    'TRANSFER_FAILED',
    { referenceId: '78' },
    V1,
    { do: 'recheck', why: 'reference_mismatch' },
  ],
  [
    'unbound, still submitting: waits (looked at again once it is sent)',
    row('SUBMITTING', { ...V1_ROW, referenceId: null }),
    'TRANSFER_REJECTED',
    {},
    V2,
    { do: 'wait' },
  ],
];

describe('decideHint: a webhook of the other API generation (one namespace of transfer ids)', () => {
  for (const [name, r, event, fields, ctx, step] of CROSS_CASES) {
    it(name, () => assert.deepEqual(decide(r, event, fields, ctx), step));
  }
});
