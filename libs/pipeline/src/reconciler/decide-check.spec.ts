import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Diagnostics, mapProviderStatus, type ProviderResult } from '#provider-client/testing';
import { payoutRow } from '#test-support';
import { errorOf } from '../shared/submit-payout.js';
import { type CheckRules, decideBeforeAsking, decideOnAnswer, type StatusCheck } from './decide-check.js';

const rules: CheckRules = {
  schedule: [10, 20, 30],
  maxSendAttempts: 3,
  reversalWatch: [100, 200],
  failedWatch: [300, 400, 500],
  notFoundSettleMs: 1_000,
  refusedResendSettleMs: 5_000,
  // The fixture's account: its operator confirmed the status endpoint knows internal transfers.
  notReceivedFailsAccounts: new Set(['default']),
};

const row = payoutRow;

const diagnostics: Diagnostics = {
  endpoint: 'getTransferStatus',
  requestId: 'r',
  sent: true,
  attempts: 1,
  durationMs: 1,
};
const notFound: StatusCheck = {
  found: false,
  result: { outcome: 'failed', kind: 'not-found', reason: 'no such transfer', diagnostics },
};
const unclear: StatusCheck = {
  found: false,
  result: { outcome: 'unknown', reason: 'timeout', diagnostics } as ProviderResult<unknown>,
};
const says = (status: string, more: Partial<{ reason: string; utr: string }> = {}): StatusCheck => ({
  found: true,
  // The connector maps the provider's status; the raw one is kept.
  answer: { status: mapProviderStatus(status), raw: status, ...more },
});

describe('decideBeforeAsking', () => {
  it('asks first about every row but a SUBMITTING one the provider said it did not process', () => {
    for (const status of ['PENDING', 'UNKNOWN', 'SUCCESS'] as const) {
      assert.deepEqual(decideBeforeAsking(row({ status }), rules), { do: 'ask-status', resendsSpent: false });
    }
    assert.deepEqual(decideBeforeAsking(row({ status: 'SUBMITTING' }), rules), {
      do: 'ask-status',
      resendsSpent: false,
    });
  });

  it('re-sends an unprocessed attempt at once, while the schedule and the send bound allow', () => {
    const unprocessed = row({ status: 'SUBMITTING', lastError: { processed: false } });
    assert.deepEqual(decideBeforeAsking(unprocessed, rules), { do: 'resend' });
    assert.deepEqual(decideBeforeAsking({ ...unprocessed, attempt: 3 }, rules), {
      do: 'attention',
      reason: 'too_many_send_attempts',
    });
  });

  it('once re-sends are spent, asks before calling a person when an earlier attempt may have landed', () => {
    const spent = row({ status: 'SUBMITTING', lastError: { processed: false }, checkCount: 3 });
    assert.deepEqual(decideBeforeAsking({ ...spent, attempt: 2 }, rules), {
      do: 'ask-status',
      resendsSpent: true,
    });
    assert.deepEqual(decideBeforeAsking({ ...spent, attempt: 1 }, rules), {
      do: 'attention',
      reason: 'not_processed_after_retries',
    });
  });

  it('hands a crashed self withdrawal to a person without asking (no status endpoint)', () => {
    assert.deepEqual(decideBeforeAsking(row({ status: 'SUBMITTING', kind: 'self_withdrawal' }), rules), {
      do: 'attention',
      reason: 'in_doubt_resend_unsafe',
    });
  });
});

describe('decideOnAnswer', () => {
  it('applies a forward answer, with a fresh schedule unless final', () => {
    assert.deepEqual(decideOnAnswer(row({ checkCount: 3 }), says('PENDING'), false, rules), {
      do: 'move',
      to: 'PENDING',
      answer: { status: 'PENDING', raw: 'PENDING' },
      raw: 'PENDING',
      recheckInMs: 10,
    });
    const done = decideOnAnswer(row({}), says('SUCCESS', { utr: 'U1' }), false, rules);
    assert.equal(done.do === 'move' && done.recheckInMs, undefined);
  });

  it('never moves a row backwards: it is noted and checked again', () => {
    assert.deepEqual(decideOnAnswer(row({ status: 'SUCCESS' }), says('PENDING'), false, rules), {
      do: 'reschedule',
      inMs: 200,
      lastError: null,
      note: 'backwards',
    });
  });

  it('keeps an unknown provider status on the row and checks again', () => {
    assert.deepEqual(decideOnAnswer(row({}), says('WHATEVER'), false, rules), {
      do: 'reschedule',
      inMs: 20,
      lastError: { providerStatus: 'WHATEVER' },
      note: 'unknown-status',
    });
  });

  it('hands a row to a person when its schedule is spent, but only ends the watch of a SUCCESS', () => {
    assert.deepEqual(decideOnAnswer(row({ checkCount: 3 }), unclear, false, rules), {
      do: 'attention',
      reason: 'reconciliation_schedule_exhausted',
    });
    assert.deepEqual(
      decideOnAnswer(row({ status: 'SUCCESS', checkCount: 2 }), says('SUCCESS'), false, rules),
      {
        do: 'end-watch',
      },
    );
  });

  it('re-sends after "not found" only what the provider deduplicates, and within bounds', () => {
    assert.deepEqual(decideOnAnswer(row({}), notFound, false, rules), { do: 'resend' });
    assert.deepEqual(decideOnAnswer(row({ attempt: 3 }), notFound, false, rules), {
      do: 'attention',
      reason: 'too_many_send_attempts',
    });
    assert.deepEqual(decideOnAnswer(row({ status: 'SUBMITTING' }), notFound, true, rules), {
      do: 'attention',
      reason: 'not_processed_after_retries',
    });
  });

  it('treats "not found" of a PENDING row as an unclear answer: checked again, never re-sent', () => {
    const step = decideOnAnswer(row({ status: 'PENDING' }), notFound, false, rules);
    assert.equal(step.do, 'reschedule');
  });

  it('a kind without a status endpoint goes to a person, a SUCCESS one ends its watch', () => {
    const none: StatusCheck = { found: false, result: 'no-status-endpoint' };
    assert.deepEqual(decideOnAnswer(row({ kind: 'self_withdrawal' }), none, false, rules), {
      do: 'attention',
      reason: 'no_status_endpoint',
    });
    assert.deepEqual(
      decideOnAnswer(row({ status: 'SUCCESS', kind: 'self_withdrawal' }), none, false, rules),
      {
        do: 'end-watch',
      },
    );
  });

  it('settles a kind the provider does not deduplicate by asking again: still "not found" is FAILED', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    const internal = row({ kind: 'internal_transfer', status: 'UNKNOWN' });
    // The first "not found" is remembered and asked about again after the settle window.
    assert.deepEqual(decideOnAnswer(internal, notFound, false, rules, now), {
      do: 'reschedule',
      inMs: 1_000,
      lastError: { notFoundSince: '2026-11-23T10:00:00.000Z' },
    });
    const remembered = { ...internal, lastError: { notFoundSince: '2026-11-23T10:00:00.000Z' } };
    // Asked early (another wake-up): only the rest of the window.
    assert.deepEqual(decideOnAnswer(remembered, notFound, false, rules, now + 400), {
      do: 'reschedule',
      inMs: 600,
      lastError: remembered.lastError,
    });
    // Still unknown to the provider after the window: FAILED, and watched (a status endpoint
    // may lag, a call may be applied late): its first watch check in failedWatch[0].
    assert.deepEqual(decideOnAnswer(remembered, notFound, false, rules, now + 1_000), {
      do: 'move',
      to: 'FAILED',
      answer: { reason: 'not_received_by_provider' },
      raw: undefined,
      recheckInMs: 300,
    });
    // Found meanwhile: its state wins, as for any row.
    assert.equal(decideOnAnswer(remembered, says('SUCCESS'), false, rules, now + 1_000).do, 'move');
    // A SUBMITTING row (a crash mid-call) is settled the same way, and a bad stamp starts afresh.
    const crashed = { ...internal, status: 'SUBMITTING' as const, lastError: { notFoundSince: 'nonsense' } };
    assert.equal(decideOnAnswer(crashed, notFound, false, rules, now).do, 'reschedule');
  });

  it('the failed watch: a FAILED the provider now holds as paid or pending is a contradiction, never a move', () => {
    const failed = row({
      kind: 'internal_transfer',
      status: 'FAILED',
      checkCount: 1,
      reason: 'not_received_by_provider',
    });
    assert.deepEqual(decideOnAnswer(failed, says('SUCCESS', { utr: 'U9' }), false, rules), {
      do: 'contradict',
      observed: 'SUCCESS',
      raw: 'SUCCESS',
      inMs: 400,
    });
    assert.deepEqual(decideOnAnswer(failed, says('PENDING'), false, rules), {
      do: 'contradict',
      observed: 'PENDING',
      raw: 'PENDING',
      inMs: 400,
    });
    // Seen on the last watch check: recorded, and the watch ends (the queue holds it now).
    const last = { ...failed, checkCount: 3 };
    assert.deepEqual(decideOnAnswer(last, says('SUCCESS'), false, rules), {
      do: 'contradict',
      observed: 'SUCCESS',
      raw: 'SUCCESS',
      inMs: undefined,
    });
  });

  it('the failed watch: still not found, or FAILED, is checked again per its schedule, then ends', () => {
    const failed = row({ kind: 'internal_transfer', status: 'FAILED', checkCount: 1 });
    const again = decideOnAnswer(failed, notFound, false, rules);
    assert.deepEqual([again.do, again.do === 'reschedule' && again.inMs], ['reschedule', 400]);
    assert.equal(decideOnAnswer(failed, says('FAILED'), false, rules).do, 'reschedule');
    assert.deepEqual(decideOnAnswer({ ...failed, checkCount: 3 }, notFound, false, rules), {
      do: 'end-watch',
    });
    // Never handed to a person for an unclear answer: the published state stands.
    assert.deepEqual(decideOnAnswer({ ...failed, checkCount: 3 }, unclear, false, rules), {
      do: 'end-watch',
    });
  });

  it('the reversal watch: a SUCCESS the provider now holds as FAILED or REJECTED is a contradiction; REVERSED a move', () => {
    const paid = row({ status: 'SUCCESS', checkCount: 1 });
    assert.deepEqual(decideOnAnswer(paid, says('FAILED'), false, rules), {
      do: 'contradict',
      observed: 'FAILED',
      raw: 'FAILED',
      inMs: 200,
    });
    assert.equal(decideOnAnswer(paid, says('REJECTED'), false, rules).do, 'contradict');
    assert.equal(decideOnAnswer(paid, says('REVERSED'), false, rules).do, 'move');
    // A lagging PENDING is an old answer, not a contradiction.
    assert.equal(decideOnAnswer(paid, says('PENDING'), false, rules).do, 'reschedule');
  });

  it('issue 29 (5d): on an account not confirmed for it, "still not found" after the window goes to a person, never FAILED', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    const internal = row({
      kind: 'internal_transfer',
      status: 'UNKNOWN',
      accountId: 'merchant-2',
      lastError: { notFoundSince: '2026-11-23T10:00:00.000Z' },
    });
    assert.equal(decideOnAnswer(internal, notFound, false, rules, now + 500).do, 'reschedule');
    assert.deepEqual(decideOnAnswer(internal, notFound, false, rules, now + 1_000), {
      do: 'attention',
      reason: 'not_received_unconfirmed',
    });
    // Off for every account: the same.
    const none = { ...rules, notReceivedFailsAccounts: new Set<string>() };
    assert.deepEqual(
      decideOnAnswer({ ...internal, accountId: 'default' }, notFound, false, none, now + 1_000),
      {
        do: 'attention',
        reason: 'not_received_unconfirmed',
      },
    );
  });

  it('issue 29 (3): every negative state is watched: REVERSED, then SUCCESS or PENDING, is a contradiction', () => {
    const reversed = row({ status: 'REVERSED', checkCount: 1, reason: 'ACCOUNT_FROZEN_OR_CLOSED' });
    assert.deepEqual(decideOnAnswer(reversed, says('SUCCESS'), false, rules), {
      do: 'contradict',
      observed: 'SUCCESS',
      raw: 'SUCCESS',
      inMs: 400,
    });
    assert.equal(decideOnAnswer(reversed, says('PENDING'), false, rules).do, 'contradict');
    // Still REVERSED: the failed watch goes on, then ends; never a person's.
    assert.deepEqual(decideOnAnswer(reversed, says('REVERSED'), false, rules), {
      do: 'reschedule',
      inMs: 400,
      lastError: null,
    });
    assert.deepEqual(decideOnAnswer({ ...reversed, checkCount: 3 }, unclear, false, rules), {
      do: 'end-watch',
    });
    // A first-send refusal (REJECTED) and a status-endpoint FAILED are watched alike.
    for (const status of ['REJECTED', 'FAILED'] as const) {
      const negative = row({ status, checkCount: 1, reason: 'insufficient balance' });
      assert.equal(decideOnAnswer(negative, says('SUCCESS'), false, rules).do, 'contradict', status);
      assert.deepEqual(decideOnAnswer({ ...negative, checkCount: 3 }, notFound, false, rules), {
        do: 'end-watch',
      });
    }
  });

  it('a payout reopened from REQUIRES_ATTENTION is never settled FAILED by "not found": back to a person', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    const reopened = row({
      kind: 'internal_transfer',
      status: 'UNKNOWN',
      reopenedAt: new Date(now - 60_000),
      lastError: { notFoundSince: '2026-11-23T10:00:00.000Z' },
    });
    // The settle window still applies (the provider may catch up)...
    assert.equal(decideOnAnswer(reopened, notFound, false, rules, now + 500).do, 'reschedule');
    // ...but at its end a person proposes and another approves (four eyes).
    assert.deepEqual(decideOnAnswer(reopened, notFound, false, rules, now + 1_000), {
      do: 'attention',
      reason: 'not_received_needs_four_eyes',
    });
    // The provider's own word still settles it.
    assert.equal(decideOnAnswer(reopened, says('SUCCESS'), false, rules, now + 1_000).do, 'move');
  });
});

describe('decideOnAnswer after a refused re-send (issue 21)', () => {
  // What decideAfterSubmit leaves when the provider refused a re-send: UNKNOWN, due at once.
  const refused = (over: Parameters<typeof row>[0] = {}) =>
    row({ status: 'UNKNOWN', attempt: 2, reason: 'refused_on_resend', checkCount: 1, ...over });

  it('"not found" is never a re-send nor a settlement: checked again on the schedule, every kind', () => {
    // The refusal may be the sign that a first attempt exists and the status endpoint lags.
    for (const kind of [
      'standard_transfer',
      'direct_transfer',
      'card_payout',
      'internal_transfer',
    ] as const) {
      for (const status of ['UNKNOWN', 'SUBMITTING'] as const) {
        assert.deepEqual(
          decideOnAnswer(refused({ kind, status }), notFound, false, rules, 0),
          { do: 'reschedule', inMs: 20, lastError: errorOf(diagnostics) },
          `${kind} ${status}`,
        );
      }
    }
  });

  it('goes to a person, with its own reason, once the schedule is spent on "not found" or unclear answers', () => {
    for (const answer of [notFound, unclear, says('WHATEVER')]) {
      const step = decideOnAnswer(refused({ checkCount: 3 }), answer, false, rules);
      assert.equal(step.do, 'attention');
      assert.equal(step.do === 'attention' && step.reason, 'refused_on_resend');
    }
  });

  it("the status endpoint's word decides: SUCCESS, PENDING, and FAILED from the status endpoint itself", () => {
    for (const status of ['SUCCESS', 'PENDING', 'FAILED'] as const) {
      const step = decideOnAnswer(refused(), says(status), false, rules);
      assert.equal(step.do === 'move' && step.to, status, status);
    }
  });

  it('a first send refused "already exists" is still re-sent after "not found" (bounded): only a re-send\'s refusal stops that', () => {
    const duplicate = row({ status: 'UNKNOWN', attempt: 1, reason: 'already_exists_at_provider' });
    assert.deepEqual(decideOnAnswer(duplicate, notFound, false, rules), { do: 'resend' });
  });
});

describe('decideOnAnswer after a refused re-send (issue 29, defects 4 and 5)', () => {
  const refusedAt = Date.parse('2026-11-23T10:00:00Z');
  const refused = (over: Parameters<typeof row>[0] = {}) =>
    row({
      status: 'UNKNOWN',
      attempt: 2,
      reason: 'refused_on_resend',
      checkCount: 1,
      maybeReached: true,
      resendRefusedAt: new Date(refusedAt),
      stateChangedAt: new Date(refusedAt),
      ...over,
    });

  it('defect 4: a person has it within the settle window, not at the end of the whole schedule', () => {
    // Inside the window: asked again, never later than the window's end.
    assert.deepEqual(decideOnAnswer(refused(), notFound, false, rules, refusedAt + 1_000), {
      do: 'reschedule',
      inMs: 20,
      lastError: errorOf(diagnostics),
    });
    assert.deepEqual(decideOnAnswer(refused(), unclear, false, rules, refusedAt + 4_990), {
      do: 'reschedule',
      inMs: 10,
      lastError: errorOf(diagnostics),
    });
    // The window has passed with checks of the schedule left: REQUIRES_ATTENTION refused_on_resend.
    for (const answer of [notFound, unclear, says('WHATEVER')]) {
      assert.deepEqual(
        decideOnAnswer(refused(), answer, false, rules, refusedAt + 5_000),
        answer === notFound || answer === unclear
          ? { do: 'attention', reason: 'refused_on_resend' }
          : { do: 'attention', reason: 'refused_on_resend', note: 'unknown-status' },
      );
    }
  });

  it('defect 5c: a reopen overwrites the reason, but the row keeps the refusal: "not found" never re-sends', () => {
    const reopened = refused({
      reason: 'operator recheck',
      reopenedAt: new Date(refusedAt + 60_000),
      checkCount: 0,
    });
    // A fresh window from the reopen, then a person again; never a re-send.
    assert.equal(decideOnAnswer(reopened, notFound, false, rules, refusedAt + 61_000).do, 'reschedule');
    assert.deepEqual(decideOnAnswer(reopened, notFound, false, rules, refusedAt + 65_000), {
      do: 'attention',
      reason: 'refused_on_resend',
    });
    const webhook = refused({ reason: 'webhook: TRANSFER_FAILED', reopenedAt: new Date(refusedAt) });
    assert.notEqual(decideOnAnswer(webhook, notFound, false, rules, refusedAt + 1).do, 'resend');
  });
});

describe('the reversal watch counts working days (issue 29)', () => {
  // Paid on Friday 2026-11-27, 15:00 in India (09:30 UTC); the default calendar: Sunday off, the
  // 2nd and 4th Saturday off (28 November is the 4th Saturday), no holidays listed.
  const paidAt = new Date('2026-11-27T09:30:00Z');
  const watched = row({ status: 'SUCCESS', stateChangedAt: paidAt, checkCount: 2 });
  const withDays: CheckRules = { ...rules, reversalWatchWorkingDays: 3 };

  it('past its schedule, a SUCCESS is asked again until that many working days have passed', () => {
    // Monday 30 November: one working day has passed (Saturday and Sunday are off).
    const monday = Date.parse('2026-11-30T10:00:00Z');
    assert.deepEqual(decideOnAnswer(watched, says('SUCCESS'), false, withDays, monday), {
      do: 'reschedule',
      inMs: 200,
      lastError: null,
    });
  });

  it('the last check falls at the end of the working days; past it the watch ends', () => {
    // Three working days after Friday 15:00 IST: Wednesday 2 December 15:00 IST (09:30 UTC).
    const end = Date.parse('2026-12-02T09:30:00Z');
    assert.deepEqual(decideOnAnswer(watched, says('SUCCESS'), false, withDays, end - 50), {
      do: 'reschedule',
      inMs: 50,
      lastError: null,
    });
    assert.deepEqual(decideOnAnswer(watched, says('SUCCESS'), false, withDays, end), { do: 'end-watch' });
  });

  it('without working days set, the schedule alone decides (as before)', () => {
    const monday = Date.parse('2026-11-30T10:00:00Z');
    assert.deepEqual(decideOnAnswer(watched, says('SUCCESS'), false, rules, monday), { do: 'end-watch' });
  });
});
