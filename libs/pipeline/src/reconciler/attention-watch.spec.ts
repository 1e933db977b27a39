import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { payoutRow } from '#test-support';
import { type PayoutFound } from '#provider-client/testing';
import { type CheckRules, type StatusCheck } from './decide-check.js';
import { attentionWatchFirst, decideOnAttentionAnswer, SETTLED_WHILE_WAITING } from './attention-watch.js';
import { DEFAULT_CALENDAR } from '../shared/working-days.js';

const H = 3_600_000;
const D = 24 * H;
const rules: CheckRules = {
  schedule: [1000],
  maxSendAttempts: 3,
  reversalWatch: [],
  failedWatch: [],
  notFoundSettleMs: H,
  refusedResendSettleMs: 3_600_000,
  notReceivedFailsAccounts: new Set<string>(),
  waits: {
    queued: { delays: [H], maxMs: 4 * D },
    approvalPending: { delays: [H], maxMs: 7 * D },
    nextWorkingDay: { delays: [H], cutoffMinutes: 1080, settleMs: 4 * H },
    attention: { delays: [H, 3 * H], maxMs: 14 * D },
    calendar: DEFAULT_CALENDAR,
    accounts: new Map(),
  },
};
const now = Date.parse('2026-11-10T06:30:00Z');
const says = (answer: PayoutFound): StatusCheck => ({ found: true, answer });
const waiting = (over = {}) =>
  payoutRow({
    status: 'REQUIRES_ATTENTION',
    reason: 'reconciliation_schedule_exhausted',
    stateChangedAt: new Date(now - 2 * D),
    ...over,
  });

describe("the attention watch: a person's payout is still asked, slowly", () => {
  it('a SUCCESS settles it, and the history says why', () => {
    const step = decideOnAttentionAnswer(
      waiting(),
      says({ status: 'SUCCESS', raw: 'SUCCESS', utr: 'U1' }),
      rules,
      now,
    );
    assert.ok(step.do === 'move');
    assert.equal(step.to, 'SUCCESS');
    assert.equal(step.answer.reason, SETTLED_WHILE_WAITING);
    assert.equal(step.answer.utr, 'U1');
  });

  it("a SUCCESS settles it also where a person was to decide for money reasons (the provider's word)", () => {
    for (const reason of ['refused_on_resend', 'not_received_needs_four_eyes', 'too_many_send_attempts']) {
      const step = decideOnAttentionAnswer(
        waiting({ reason }),
        says({ status: 'SUCCESS', raw: 'SUCCESS' }),
        rules,
        now,
      );
      assert.ok(step.do === 'move' && step.to === 'SUCCESS', reason);
    }
  });

  it("the provider's own FAILED settles it, with its reason kept", () => {
    const step = decideOnAttentionAnswer(
      waiting({ reason: 'not_received_needs_four_eyes', reopenedAt: new Date(now - D) }),
      says({ status: 'FAILED', raw: 'FAILED', reason: 'INVALID_ACCOUNT' }),
      rules,
      now,
    );
    assert.ok(step.do === 'move' && step.to === 'FAILED');
    assert.equal(step.answer.reason, `${SETTLED_WHILE_WAITING}: INVALID_ACCOUNT`);
  });

  it('"not found" never settles it (no automatic FAILED: four eyes, ADR 0016/0018)', () => {
    const notFound: StatusCheck = {
      found: false,
      result: {
        outcome: 'failed',
        kind: 'not-found',
        reason: 'no such transfer',
        diagnostics: {
          endpoint: 'getTransferStatus',
          requestId: 'r',
          sent: true,
          attempts: 1,
          durationMs: 1,
        },
      },
    };
    for (const reopenedAt of [null, new Date(now - D)]) {
      const step = decideOnAttentionAnswer(
        waiting({ reopenedAt, reason: 'not_received_needs_four_eyes' }),
        notFound,
        rules,
        now,
      );
      assert.equal(step.do, 'reschedule');
    }
  });

  it('still pending, or a status not known: stays with the person, asked again later, slower', () => {
    const a = decideOnAttentionAnswer(
      waiting(),
      says({ status: 'PENDING', raw: 'PENDING', subState: 'queued' }),
      rules,
      now,
    );
    assert.ok(a.do === 'reschedule' && a.inMs <= 3 * H);
    const b = decideOnAttentionAnswer(waiting(), says({ raw: 'ON_HOLD' }), rules, now);
    assert.ok(b.do === 'reschedule' && b.note === 'unknown-status');
  });

  it('an answer naming another provider reference settles nothing', () => {
    const step = decideOnAttentionAnswer(
      waiting({ referenceId: 'R1' }),
      says({ status: 'SUCCESS', raw: 'SUCCESS', referenceId: 'R2' }),
      rules,
      now,
    );
    assert.equal(step.do, 'reschedule');
  });

  it('the watch ends after its maximum; the payout stays with the person', () => {
    const step = decideOnAttentionAnswer(
      waiting({ stateChangedAt: new Date(now - 15 * D) }),
      says({ status: 'PENDING', raw: 'PENDING' }),
      rules,
      now,
    );
    assert.equal(step.do, 'end-watch');
    assert.equal(attentionWatchFirst(rules, now), H);
    assert.equal(attentionWatchFirst({ ...rules, waits: undefined }, now), undefined);
  });
});
