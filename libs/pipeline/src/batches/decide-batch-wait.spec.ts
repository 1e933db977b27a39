import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ProviderSubState } from '#contracts';
import { type LongWaitRules } from '../shared/long-waits.js';
import { DEFAULT_CALENDAR } from '../shared/working-days.js';
import {
  allEntriesFinal,
  answersAnotherBatch,
  batchAttentionDelay,
  batchWaitStep,
} from './decide-batch-wait.js';

const H = 3_600_000;
const NOW = Date.parse('2026-12-01T06:00:00Z');
const WAITS: LongWaitRules = {
  queued: { delays: [H], maxMs: 4 * H },
  approvalPending: { delays: [2 * H], maxMs: 24 * H },
  nextWorkingDay: { delays: [H], cutoffMinutes: 18 * 60, settleMs: 4 * H },
  attention: { delays: [3 * H], maxMs: 14 * 24 * H },
  calendar: DEFAULT_CALENDAR,
  accounts: new Map([['tiny', { queueMaxMs: H }]]),
};
const batch = { accountId: 'default', checkCount: 1 };

function entry(status: string, subState: ProviderSubState | null = null, agoMs = 0) {
  return { status, subState, updatedAt: new Date(NOW - agoMs) };
}

describe('batchWaitStep: an open batch by its longest open wait (issue 29)', () => {
  it('no entry in a long wait: the generic schedule, then exhausted', () => {
    assert.deepEqual(batchWaitStep(batch, [entry('PENDING')], [100, 200], WAITS, NOW), { inMs: 200 });
    assert.deepEqual(batchWaitStep({ ...batch, checkCount: 2 }, [entry('PENDING')], [100, 200], WAITS, NOW), {
      exhausted: 'reconciliation_schedule_exhausted',
    });
  });

  it('a queued entry keeps the batch asked on the queue schedule after the generic one is spent', () => {
    const spent = { ...batch, checkCount: 5 };
    assert.deepEqual(
      batchWaitStep(spent, [entry('SUCCESS'), entry('PENDING', 'queued', 10 * 60_000)], [1], WAITS, NOW),
      {
        inMs: 50 * 60_000,
      },
    );
  });

  it('a plain pending entry rides along: the soonest of its schedule and the waits', () => {
    const step = batchWaitStep(batch, [entry('PENDING'), entry('PENDING', 'queued')], [100, 200], WAITS, NOW);
    assert.deepEqual(step, { inMs: 200 });
    const spent = batchWaitStep(
      { ...batch, checkCount: 9 },
      [entry('PENDING'), entry('PENDING', 'queued')],
      [100],
      WAITS,
      NOW,
    );
    assert.deepEqual(spent, { inMs: H });
  });

  it('exhausted only when no entry has time left; the reason names the longest wait', () => {
    const entries = [entry('PENDING', 'queued', 5 * H), entry('PENDING', 'approval_pending', 2 * H)];
    // The approval still has 22 hours: asked on its schedule (every 2 hours from its start).
    assert.deepEqual(batchWaitStep(batch, entries, [1], WAITS, NOW), { inMs: 2 * H });
    const both = [entry('PENDING', 'queued', 5 * H), entry('PENDING', 'approval_pending', 24.5 * H)];
    assert.deepEqual(batchWaitStep(batch, both, [1], WAITS, NOW), { exhausted: 'approval_pending_too_long' });
  });

  it('an open entry that waits nowhere in particular names the generic reason once everything is spent', () => {
    const entries = [entry('PENDING', 'queued', 5 * H), entry('ERROR')];
    assert.deepEqual(batchWaitStep({ ...batch, checkCount: 3 }, entries, [1], WAITS, NOW), {
      exhausted: 'reconciliation_schedule_exhausted',
    });
  });

  it("the account's own queue time bounds its entries", () => {
    const tiny = { accountId: 'tiny', checkCount: 3 };
    assert.deepEqual(batchWaitStep(tiny, [entry('PENDING', 'queued', 2 * H)], [1], WAITS, NOW), {
      exhausted: 'queued_past_provider_maximum',
    });
  });

  it('short sub-states (approved, sent to bank) and entries not PENDING follow the generic schedule', () => {
    const spent = { ...batch, checkCount: 4 };
    assert.deepEqual(batchWaitStep(spent, [entry('PENDING', 'sent_to_bank')], [1], WAITS, NOW), {
      exhausted: 'reconciliation_schedule_exhausted',
    });
    assert.deepEqual(batchWaitStep(spent, [entry('RECEIVED', 'queued')], [1], WAITS, NOW), {
      exhausted: 'reconciliation_schedule_exhausted',
    });
  });

  it('without the long-wait rules: the generic schedule alone', () => {
    assert.deepEqual(
      batchWaitStep({ ...batch, checkCount: 4 }, [entry('PENDING', 'queued')], [1], undefined, NOW),
      {
        exhausted: 'reconciliation_schedule_exhausted',
      },
    );
  });
});

describe('the attention watch of a batch', () => {
  it('asks on ATTENTION_WATCH_SCHEDULE from when a person got it, until its end', () => {
    assert.equal(batchAttentionDelay(new Date(NOW), WAITS, NOW), 3 * H);
    assert.equal(batchAttentionDelay(new Date(NOW - 15 * 24 * H), WAITS, NOW), undefined);
    assert.equal(batchAttentionDelay(new Date(NOW), undefined, NOW), undefined);
  });

  it('settles only on every entry final, and never on another batch record', () => {
    assert.equal(allEntriesFinal([{ status: 'SUCCESS' }, { status: 'FAILED' }]), true);
    assert.equal(allEntriesFinal([{ status: 'SUCCESS' }, { status: 'PENDING' }]), false);
    assert.equal(allEntriesFinal([]), false);
    assert.equal(answersAnotherBatch({ referenceId: '7' }, '8'), true);
    assert.equal(answersAnotherBatch({ referenceId: '7' }, '7'), false);
    assert.equal(answersAnotherBatch({ referenceId: null }, '8'), false);
  });
});
