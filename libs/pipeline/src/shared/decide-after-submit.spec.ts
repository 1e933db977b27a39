import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type FailureKind, type ProviderResult } from '#provider-client/testing';
import { type PayoutKind } from '#ledger';
import { decideAfterSubmit, type Decision, REFUSED_ON_RESEND } from './decide-after-submit.js';

const timings = { firstCheckMs: 1000, resendMs: 100, fatalConfigMs: 60_000 };
const diagnostics = (message?: string, sent = true) => ({
  endpoint: 'directTransfer' as const,
  requestId: 'r',
  sent,
  attempts: 1,
  durationMs: 1,
  evidence: '422',
  message,
});
const first = { attempt: 1, kind: 'direct_transfer' as PayoutKind };
const resend = { attempt: 2, kind: 'direct_transfer' as PayoutKind, maybeReached: true };

/** Every failure kind: the compiler refuses a kind missing here. */
const FAILURE_KINDS = Object.keys({
  rejected: true,
  duplicate: true,
  'invalid-request': true,
  'not-found': true,
  reversed: true,
  expired: true,
} satisfies Record<FailureKind, true>) as FailureKind[];

const failed = (kind: FailureKind, message: string, sent = true): ProviderResult<unknown> => ({
  outcome: 'failed',
  kind,
  reason: message,
  diagnostics: diagnostics(message, sent),
});

/** Every outcome class but `failed`, with what the first send and a re-send both make of it. */
const NOT_REFUSED: ReadonlyArray<[ProviderResult<unknown>, Decision]> = [
  [
    { outcome: 'success', data: {}, diagnostics: diagnostics() },
    { to: 'SUCCESS', statusCode: '422', maybeReached: true },
  ],
  [
    { outcome: 'pending', diagnostics: diagnostics() },
    { to: 'PENDING', statusCode: '422', recheckInMs: 1000, maybeReached: true },
  ],
  [
    { outcome: 'unknown', reason: 'timeout', diagnostics: diagnostics() },
    { to: 'UNKNOWN', reason: 'timeout', recheckInMs: 1000, maybeReached: true },
  ],
  [
    { outcome: 'retry-safe', reason: 'rate limited', retryAfterMs: 7000, diagnostics: diagnostics() },
    { to: 'SUBMITTING', reason: 'rate limited', recheckInMs: 7000 },
  ],
  [
    { outcome: 'auth-refresh', reason: 'token', diagnostics: diagnostics() },
    { to: 'SUBMITTING', reason: 'token', recheckInMs: 100 },
  ],
  [
    { outcome: 'fatal-config', reason: 'ip', diagnostics: diagnostics() },
    { to: 'SUBMITTING', reason: 'ip', recheckInMs: 60_000 },
  ],
];

describe('decideAfterSubmit', () => {
  it('carries the provider message as the reason, with any account number in it masked', () => {
    const d = decideAfterSubmit(
      {
        result: {
          outcome: 'failed',
          kind: 'rejected',
          reason: 'Invalid bank account',
          diagnostics: diagnostics('Invalid bank account number 026291800001191 for IFSC YESB0000262'),
        },
      },
      timings,
      first,
    );
    assert.equal(d.to, 'FAILED');
    assert.equal(d.reason, 'Invalid bank account number XXXXXXXXXXX1191 for IFSC YESB0000262');
  });

  it('issue 29: a pending answer keeps where the payout waits at the provider (next working day)', () => {
    const pending: ProviderResult<unknown> = {
      outcome: 'pending',
      subState: 'scheduled_next_working_day',
      diagnostics: diagnostics('Scheduled for next working day'),
    };
    const d = decideAfterSubmit({ result: pending }, timings, first);
    assert.equal(d.to, 'PENDING');
    assert.equal(d.subState, 'scheduled_next_working_day');
    const plain = decideAfterSubmit(
      { result: { outcome: 'pending', diagnostics: diagnostics() } },
      timings,
      first,
    );
    assert.equal(plain.subState, undefined);
  });

  it('never re-initiates on "already exists": the payout is UNKNOWN and checked at once', () => {
    const d = decideAfterSubmit(
      {
        result: {
          outcome: 'failed',
          kind: 'duplicate',
          reason: 'Transfer Id already exists',
          diagnostics: diagnostics('Transfer Id already exists'),
        },
      },
      timings,
      first,
    );
    assert.deepEqual(d, {
      to: 'UNKNOWN',
      reason: 'already_exists_at_provider',
      recheckInMs: 0,
      maybeReached: true,
    });
  });

  it('first send: a refusal is final, by kind (the provider had never seen this transferId)', () => {
    const expected: Record<FailureKind, Decision> = {
      rejected: { to: 'FAILED', reason: 'Insufficient balance', statusCode: '422' },
      duplicate: { to: 'UNKNOWN', reason: 'already_exists_at_provider', recheckInMs: 0, maybeReached: true },
      'invalid-request': { to: 'FAILED', reason: 'Insufficient balance', statusCode: '422' },
      'not-found': { to: 'FAILED', reason: 'Insufficient balance', statusCode: '422' },
      reversed: { to: 'FAILED', reason: 'Insufficient balance', statusCode: '422' },
      expired: { to: 'REJECTED', reason: 'Insufficient balance', statusCode: '422' },
    };
    for (const kind of FAILURE_KINDS) {
      const d = decideAfterSubmit({ result: failed(kind, 'Insufficient balance') }, timings, first);
      assert.deepEqual(d, expected[kind], kind);
    }
    // Refused before it left this process: never sent, so REJECTED.
    const local = decideAfterSubmit({ result: failed('invalid-request', 'bad', false) }, timings, first);
    assert.equal(local.to, 'REJECTED');
  });

  it('re-send: every refusal, of every kind, is UNKNOWN with a status check now, never FAILED or REJECTED', () => {
    // The first attempt may have been applied (its answer lost, the status endpoint lagging):
    // "Insufficient balance" (it took the balance), "Duplicate transferId", a 404... all say so.
    for (const attempt of [2, 3, 10]) {
      for (const kind of FAILURE_KINDS) {
        for (const sent of [true, false]) {
          for (const words of [
            'Insufficient balance',
            'Duplicate transferId',
            'Beneficiary does not exist',
          ]) {
            const d = decideAfterSubmit({ result: failed(kind, words, sent) }, timings, {
              attempt,
              kind: 'direct_transfer',
              maybeReached: true,
            });
            assert.deepEqual(
              d,
              {
                to: 'UNKNOWN',
                reason: REFUSED_ON_RESEND,
                recheckInMs: 0,
                resendRefused: true,
                maybeReached: true,
              },
              `attempt ${attempt}, ${kind}, sent ${sent}: ${words}`,
            );
          }
        }
      }
    }
  });

  it('issue 29 (defect 4): a re-send after attempts the provider certainly did not process is refused as a first send', () => {
    // A 429, a token refresh or refused credentials before: no attempt may have reached the
    // provider (the row's maybe_reached is false), so "Insufficient balance" is the payout's own.
    for (const kind of FAILURE_KINDS) {
      const d = decideAfterSubmit({ result: failed(kind, 'Insufficient balance') }, timings, {
        attempt: 3,
        kind: 'direct_transfer',
        maybeReached: false,
      });
      const asFirst = decideAfterSubmit({ result: failed(kind, 'Insufficient balance') }, timings, first);
      assert.deepEqual(d, asFirst, kind);
      assert.notEqual(d.reason, REFUSED_ON_RESEND, kind);
    }
  });

  it("issue 29: the client's flag that its inner re-send after a 429 may follow a forwarded attempt keeps a refusal from being final", () => {
    const flagged: ProviderResult<unknown> = {
      outcome: 'failed',
      kind: 'rejected',
      reason: 'Insufficient balance',
      diagnostics: { ...diagnostics('Insufficient balance'), earlierAttemptMayHaveReached: true as const },
    };
    const d = decideAfterSubmit({ result: flagged }, timings, first);
    assert.equal(d.reason, REFUSED_ON_RESEND);
    assert.equal(d.maybeReached, true);
    // An unprocessed answer with the flag still marks the row as maybe reached.
    const r429: ProviderResult<unknown> = {
      outcome: 'retry-safe',
      reason: 'rate limited',
      diagnostics: { ...diagnostics(), earlierAttemptMayHaveReached: true as const },
    };
    assert.equal(decideAfterSubmit({ result: r429 }, timings, first).maybeReached, true);
  });

  it('re-send of a kind the provider cannot be asked about: a refusal goes to a person at once', () => {
    for (const kind of FAILURE_KINDS) {
      const d = decideAfterSubmit({ result: failed(kind, 'Insufficient balance') }, timings, {
        attempt: 2,
        kind: 'self_withdrawal',
        maybeReached: true,
      });
      assert.deepEqual(
        d,
        { to: 'REQUIRES_ATTENTION', reason: REFUSED_ON_RESEND, resendRefused: true, maybeReached: true },
        kind,
      );
    }
  });

  it('every other outcome means the same on a first send and on a re-send', () => {
    for (const [result, expected] of NOT_REFUSED) {
      for (const send of [first, resend]) {
        assert.deepEqual(
          // The connector gives the code to keep with an accepted answer as the submission's statusCode.
          decideAfterSubmit({ result, statusCode: '422' }, timings, send),
          expected,
          `${result.outcome} ${send.attempt}`,
        );
      }
    }
  });

  it('a stored request that no longer decodes goes to a person, first send or re-send', () => {
    for (const send of [first, resend]) {
      const d = decideAfterSubmit(
        { result: failed('invalid-request', 'schema', false), storedRequestInvalid: true },
        timings,
        send,
      );
      assert.deepEqual(d, { to: 'REQUIRES_ATTENTION', reason: 'stored_request_invalid' });
    }
  });
});
