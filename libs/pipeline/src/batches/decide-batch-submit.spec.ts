import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type BatchSubmitted,
  type BatchTransferAccepted,
  type FailureKind,
  type ProviderResult,
} from '#provider-client/testing';
import {
  batchAttentionReason,
  type BatchDecision,
  decideAfterBatchSubmit,
  onBatchNotFound,
} from './decide-batch-submit.js';

const timings = { firstCheckMs: 1000, resendMs: 100 };

/** What the connector makes of a v1 send's answer: the result, and the provider's batch id. */
function wrap(result: ProviderResult<BatchTransferAccepted>): BatchSubmitted {
  const referenceId = 'data' in result ? result.data?.referenceId : undefined;
  const code = result.diagnostics.evidence;
  return { result, ...(referenceId ? { referenceId } : {}), ...(code ? { refusalCode: code } : {}) };
}
const diagnostics = (sent = true) => ({
  endpoint: 'requestBatchTransfer' as const,
  requestId: 'r',
  sent,
  attempts: 1,
  durationMs: 1,
  evidence: '422',
  message: 'Insufficient balance',
});

/** Every failure kind: the compiler refuses a kind missing here. */
const FAILURE_KINDS = Object.keys({
  rejected: true,
  duplicate: true,
  'invalid-request': true,
  'not-found': true,
  reversed: true,
  expired: true,
} satisfies Record<FailureKind, true>) as FailureKind[];

const failed = (kind: FailureKind, sent = true): ProviderResult<BatchTransferAccepted> => ({
  outcome: 'failed',
  kind,
  reason: 'Batch refused',
  diagnostics: diagnostics(sent),
});

/** Every outcome class but `failed`: the same on a first send and a re-send. */
const NOT_REFUSED: ReadonlyArray<[ProviderResult<BatchTransferAccepted>, BatchDecision]> = [
  [
    { outcome: 'success', data: { referenceId: '77' }, diagnostics: diagnostics() },
    { to: 'PROCESSING', referenceId: '77', recheckInMs: 1000 },
  ],
  [
    { outcome: 'pending', diagnostics: diagnostics() },
    { to: 'PROCESSING', recheckInMs: 1000 },
  ],
  [
    { outcome: 'unknown', reason: 'timeout', diagnostics: diagnostics() },
    { to: 'UNKNOWN', reason: 'timeout', recheckInMs: 1000 },
  ],
  [
    { outcome: 'retry-safe', reason: 'rate limited', diagnostics: diagnostics() },
    { to: 'SUBMITTING', reason: 'rate limited', recheckInMs: 100 },
  ],
  [
    { outcome: 'auth-refresh', reason: 'token', diagnostics: diagnostics() },
    { to: 'SUBMITTING', reason: 'token', recheckInMs: 100 },
  ],
  [
    { outcome: 'fatal-config', reason: 'ip', diagnostics: diagnostics() },
    { to: 'SUBMITTING', reason: 'ip', recheckInMs: 100 },
  ],
];

describe('decideAfterBatchSubmit', () => {
  it('first send: a refusal is final, "already exists" is a status check', () => {
    for (const kind of FAILURE_KINDS) {
      const expected: BatchDecision =
        kind === 'duplicate'
          ? { to: 'UNKNOWN', reason: 'already_exists_at_provider', recheckInMs: 0 }
          : { to: 'FAILED', reason: 'Batch refused', statusCode: '422' };
      assert.deepEqual(decideAfterBatchSubmit(wrap(failed(kind)), 1, timings), expected, kind);
    }
    assert.equal(decideAfterBatchSubmit(wrap(failed('invalid-request', false)), 1, timings).to, 'REJECTED');
  });

  it('re-send: every refusal, of every kind, is UNKNOWN with a status check now, never FAILED or REJECTED', () => {
    for (const attempt of [2, 3]) {
      for (const kind of FAILURE_KINDS) {
        for (const sent of [true, false]) {
          assert.deepEqual(
            decideAfterBatchSubmit(wrap(failed(kind, sent)), attempt, timings),
            { to: 'UNKNOWN', reason: 'refused_on_resend', recheckInMs: 0 },
            `attempt ${attempt}, ${kind}, sent ${sent}`,
          );
        }
      }
    }
  });

  it('every other outcome means the same on a first send and on a re-send', () => {
    for (const [result, expected] of NOT_REFUSED) {
      for (const attempt of [1, 2]) {
        assert.deepEqual(
          decideAfterBatchSubmit(wrap(result), attempt, timings),
          expected,
          `${result.outcome} ${attempt}`,
        );
      }
    }
  });
});

describe('a batch the status call does not know', () => {
  it('is sent again, unless the provider refused its re-send: then asked again, then a person', () => {
    assert.equal(onBatchNotFound({ status: 'SUBMITTING', reason: null }), 'resend');
    assert.equal(onBatchNotFound({ status: 'UNKNOWN', reason: 'already_exists_at_provider' }), 'resend');
    assert.equal(onBatchNotFound({ status: 'UNKNOWN', reason: 'refused_on_resend' }), 'ask-later');
    assert.equal(
      batchAttentionReason({ status: 'UNKNOWN', reason: 'refused_on_resend' }, 'failed'),
      'refused_on_resend',
    );
    assert.equal(
      batchAttentionReason({ status: 'UNKNOWN', reason: 'timeout' }, 'failed'),
      'reconciliation_schedule_exhausted (failed)',
    );
    // Found since (PROCESSING): the refused re-send is no longer the batch's story.
    assert.equal(
      batchAttentionReason({ status: 'PROCESSING', reason: 'refused_on_resend' }, 'unknown'),
      'reconciliation_schedule_exhausted (unknown)',
    );
  });
});
