import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { payoutRow } from '#test-support';
import { type PayoutFound } from '#provider-client/testing';
import { type CheckRules, decideOnAnswer, type StatusCheck } from './decide-check.js';
import { type LongWaitRules, longWaitStep, slowingDelay } from './long-waits.js';
import { DEFAULT_CALENDAR } from '../shared/working-days.js';

const M = 60_000;
const H = 60 * M;
const D = 24 * H;

// Written from the issue and provider-facts.md, not read back from the settings' defaults.
const waits: LongWaitRules = {
  queued: { delays: [5 * M, 15 * M, 30 * M, H], maxMs: 4 * D },
  approvalPending: { delays: [5 * M, H], maxMs: 7 * D },
  nextWorkingDay: { delays: [30 * M, H], cutoffMinutes: 18 * 60, settleMs: 4 * H },
  attention: { delays: [H, 3 * H], maxMs: 14 * D },
  calendar: DEFAULT_CALENDAR,
  accounts: new Map([['acc10', { queueMaxMs: 10 * D }]]),
};

const rules: CheckRules = {
  // The generic schedule: about 16 hours in all, as RECONCILE_SCHEDULE.
  schedule: [30_000, M, 2 * M, 5 * M, 10 * M, 30 * M, H, 2 * H, 4 * H, 8 * H],
  maxSendAttempts: 3,
  reversalWatch: [H],
  failedWatch: [H],
  notFoundSettleMs: H,
  refusedResendSettleMs: 3_600_000,
  notReceivedFailsAccounts: new Set<string>(),
  waits,
};

const now = Date.parse('2026-11-10T06:30:00Z'); // Tuesday 12:00 in India
const says = (answer: PayoutFound): StatusCheck => ({ found: true, answer });
const pending = (subState?: PayoutFound['subState']): StatusCheck =>
  says({ status: 'PENDING', raw: 'PENDING', ...(subState ? { subState } : {}) });

describe('the provider sub-state is news', () => {
  it('a PENDING answer in another sub-state moves PENDING to PENDING (an event), with its own first check', () => {
    const row = payoutRow({ status: 'PENDING', subState: null, checkCount: 3 });
    const step = decideOnAnswer(row, pending('queued'), false, rules, now);
    assert.equal(step.do, 'move');
    assert.ok(step.do === 'move');
    assert.equal(step.to, 'PENDING');
    assert.equal(step.answer.subState, 'queued');
    assert.equal(step.recheckInMs, 5 * M, 'the queue schedule, not the generic 30 s');
  });

  it('the same sub-state again is not a change', () => {
    const row = payoutRow({
      status: 'PENDING',
      subState: 'queued',
      stateChangedAt: new Date(now - H),
      checkCount: 2,
    });
    assert.equal(decideOnAnswer(row, pending('queued'), false, rules, now).do, 'reschedule');
  });

  it('a plain PENDING takes no sub-state back: the wait goes on, no event (v1 never names one)', () => {
    const row = payoutRow({ status: 'PENDING', subState: 'queued', stateChangedAt: new Date(now - H) });
    const step = decideOnAnswer(row, pending(), false, rules, now);
    assert.equal(step.do, 'reschedule');
  });

  it('UNKNOWN to PENDING queued starts the queue schedule', () => {
    const row = payoutRow({ status: 'UNKNOWN' });
    const step = decideOnAnswer(row, pending('approval_pending'), false, rules, now);
    assert.ok(step.do === 'move');
    assert.equal(step.recheckInMs, 5 * M);
  });
});

describe('each long wait has its own schedule, bounded by the provider', () => {
  it('a queued payout is not handed to a person when the generic schedule is spent (16 h)', () => {
    const row = payoutRow({
      status: 'PENDING',
      subState: 'queued',
      stateChangedAt: new Date(now - 20 * H),
      checkCount: 40,
    });
    const step = decideOnAnswer(row, pending('queued'), false, rules, now);
    assert.equal(step.do, 'reschedule');
    assert.ok(step.do === 'reschedule' && step.inMs <= H, 'hourly at most once the wait is long');
  });

  it('queued: a person only past the provider maximum, per account', () => {
    const at = (since: number, accountId = 'default') =>
      decideOnAnswer(
        payoutRow({
          status: 'PENDING',
          subState: 'queued',
          accountId,
          stateChangedAt: new Date(since),
          checkCount: 99,
        }),
        pending('queued'),
        false,
        rules,
        now,
      );
    assert.equal(at(now - 4 * D + M).do, 'reschedule');
    assert.deepEqual(at(now - 4 * D - M), { do: 'attention', reason: 'queued_past_provider_maximum' });
    assert.equal(at(now - 4 * D - M, 'acc10').do, 'reschedule', 'this account queues for 10 days');
    assert.equal(at(now - 10 * D - M, 'acc10').do, 'attention');
  });

  it('the last check falls on the bound, never after it', () => {
    const step = longWaitStep(
      { accountId: 'default', subState: 'queued', since: new Date(now - 4 * D + 10 * M) },
      waits,
      now,
    );
    assert.deepEqual(step, { inMs: 10 * M });
  });

  it('approval pending: the configured wait, then a person, with a reason naming it', () => {
    const row = (age: number) =>
      payoutRow({
        status: 'PENDING',
        subState: 'approval_pending',
        stateChangedAt: new Date(now - age),
        checkCount: 50,
      });
    assert.equal(decideOnAnswer(row(6 * D), pending('approval_pending'), false, rules, now).do, 'reschedule');
    assert.deepEqual(decideOnAnswer(row(7 * D + M), pending('approval_pending'), false, rules, now), {
      do: 'attention',
      reason: 'approval_pending_too_long',
    });
  });

  it('next working day: until the next working day cut-off plus the settle window, across a weekend', () => {
    // Scheduled on Friday 13 Nov 2026, 17:00 IST; Saturday 14 (2nd) and Sunday 15 are off: Monday
    // 16 Nov, 18:00 + 4 h = 22:00 IST = 16:30 UTC.
    const since = new Date('2026-11-13T11:30:00Z');
    const row = (nowIso: string) => ({
      row: payoutRow({
        status: 'PENDING',
        subState: 'scheduled_next_working_day',
        stateChangedAt: since,
        checkCount: 9,
      }),
      now: Date.parse(nowIso),
    });
    const sun = row('2026-11-15T12:00:00Z');
    assert.equal(
      decideOnAnswer(sun.row, pending('scheduled_next_working_day'), false, rules, sun.now).do,
      'reschedule',
    );
    const monLate = row('2026-11-16T16:00:00Z');
    const s1 = decideOnAnswer(monLate.row, pending('scheduled_next_working_day'), false, rules, monLate.now);
    assert.ok(s1.do === 'reschedule' && s1.inMs <= 30 * M);
    const after = row('2026-11-16T16:31:00Z');
    assert.deepEqual(
      decideOnAnswer(after.row, pending('scheduled_next_working_day'), false, rules, after.now),
      {
        do: 'attention',
        reason: 'not_settled_after_next_working_day',
      },
    );
  });

  it('sent to the bank and approved: the generic schedule', () => {
    for (const subState of ['sent_to_bank', 'approved'] as const) {
      const row = payoutRow({
        status: 'PENDING',
        subState,
        checkCount: 10,
        stateChangedAt: new Date(now - H),
      });
      assert.deepEqual(decideOnAnswer(row, pending(subState), false, rules, now), {
        do: 'attention',
        reason: 'reconciliation_schedule_exhausted',
      });
    }
  });

  it('an unclear answer while queued keeps the queue schedule', () => {
    const row = payoutRow({
      status: 'PENDING',
      subState: 'queued',
      checkCount: 30,
      stateChangedAt: new Date(now - D),
    });
    const unclear: StatusCheck = {
      found: false,
      result: {
        outcome: 'unknown',
        reason: 'timeout',
        diagnostics: {
          endpoint: 'getTransferStatus',
          requestId: 'r',
          sent: true,
          attempts: 1,
          durationMs: 1,
        },
      },
    };
    assert.equal(decideOnAnswer(row, unclear, false, rules, now).do, 'reschedule');
  });
});

describe('slowing schedules', () => {
  it('follow the delays from the start, then repeat the last one', () => {
    const d = [5, 10, 20];
    assert.equal(slowingDelay(d, 0, 0), 5);
    assert.equal(slowingDelay(d, 0, 5), 10);
    assert.equal(slowingDelay(d, 0, 14), 1);
    assert.equal(slowingDelay(d, 0, 35), 20);
    assert.equal(slowingDelay(d, 0, 36), 19);
    assert.equal(slowingDelay(d, 0, 35 + 20 * 1000 + 7), 13);
  });
});

describe('approved (from the webhook) is a sub-state, not a status', () => {
  it('a status answer that says no more than pending keeps it; a new sub-state replaces it', () => {
    const row = payoutRow({
      status: 'PENDING',
      subState: 'approved',
      stateChangedAt: new Date(now - 60_000),
      checkCount: 1,
    });
    assert.equal(decideOnAnswer(row, pending(), false, rules, now).do, 'reschedule');
    const queued = decideOnAnswer(row, pending('queued'), false, rules, now);
    assert.ok(queued.do === 'move' && queued.answer.subState === 'queued');
  });
});
