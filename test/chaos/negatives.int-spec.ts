import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutEvent } from '#contracts';
import { type PlannedCommand } from './generate.js';
import {
  attentionLeft,
  attentionOverBudget,
  providerContradicts,
  unraisedContradictions,
} from './negatives.js';
import { type NegativePublished, type ProviderOutcome } from './observe.js';

/** The issue-29 invariants: each must see the violation it exists for (meanings from the issue). */
const T0 = Date.parse('2026-11-27T10:00:00Z');
const outcome = (
  transferId: string,
  status: string,
  over: Partial<ProviderOutcome> = {},
): ProviderOutcome => ({
  account: 'sandbox_client_id',
  transferId,
  endpoint: 'directTransfer',
  initiations: 1,
  accepted: status === 'NOT_APPLIED' ? 0 : 1,
  status,
  reached: status === 'NOT_APPLIED' ? [] : [status],
  paid: status === 'SUCCESS' ? 1 : 0,
  returned: status === 'REVERSED',
  failed: status === 'FAILED' || status === 'REJECTED',
  ...over,
});
const negative = (id: string, status: string, at = T0): NegativePublished => ({
  account: 'default',
  id,
  kind: 'direct_transfer',
  status,
  version: 3,
  type: `payouts.payout.${status.toLowerCase()}`,
  reason: undefined,
  at,
});
const contradiction = (id: string, at: number): PayoutEvent =>
  ({
    id: `payout/default/${id}:4:contradicted:success`,
    type: 'payouts.payout.contradicted',
    subject: id,
    time: new Date(at).toISOString(),
    data: { accountId: 'default', id, kind: 'direct_transfer', status: 'FAILED', version: 4 },
  }) as unknown as PayoutEvent;
const lastEvent = (id: string, status: string, reason?: string, kind = 'direct_transfer'): PayoutEvent =>
  ({
    id: `payout/default/${id}:3`,
    type: 'x',
    subject: id,
    time: new Date(T0).toISOString(),
    data: { accountId: 'default', id, kind, status, version: 3, ...(reason ? { reason } : {}) },
  }) as unknown as PayoutEvent;
const command = (identity: string, kind = 'direct_transfer', entries: string[] = []): PlannedCommand =>
  ({
    account: 'default',
    identity,
    kind,
    label: `${kind}/test`,
    value: {},
    secrets: [],
    entries,
  }) as unknown as PlannedCommand;
const WATCH = 60_000;
const label = () => 'test';

describe('issue 29 invariants against the provider record', () => {
  it('the provider contradicts a negative state when it holds the transfer paid or still on its way, not when failed, returned or never applied', () => {
    assert.equal(providerContradicts(outcome('a', 'SUCCESS')), true);
    assert.equal(providerContradicts(outcome('a', 'PENDING')), true);
    assert.equal(providerContradicts(outcome('a', 'QUEUED')), true);
    assert.equal(providerContradicts(outcome('a', 'APPROVAL_PENDING')), true);
    assert.equal(providerContradicts(outcome('a', 'FAILED')), false);
    assert.equal(providerContradicts(outcome('a', 'REJECTED')), false);
    assert.equal(providerContradicts(outcome('a', 'REVERSED')), false);
    assert.equal(providerContradicts(outcome('a', 'NOT_APPLIED')), false);
    assert.equal(providerContradicts(undefined), false);
    // Paid, then returned: the money came back, a FAILED stands.
    assert.equal(providerContradicts(outcome('a', 'SUCCESS', { returned: true })), false);
  });

  it('(a) a negative state the provider contradicts needs a contradicted event within its watch', () => {
    const negatives = new Map([
      ['default|raised', [negative('raised', 'FAILED')]],
      ['default|silent', [negative('silent', 'REJECTED')]],
      ['default|late', [negative('late', 'FAILED')]],
      ['default|before', [negative('before', 'FAILED', T0 + 10_000)]],
      ['default|reversed', [negative('reversed', 'REVERSED')]],
      ['default|agreed', [negative('agreed', 'FAILED')]],
    ]);
    const outcomes = new Map([
      ['default|raised', outcome('raised', 'SUCCESS')],
      ['default|silent', outcome('silent', 'SUCCESS')],
      ['default|late', outcome('late', 'SUCCESS')],
      ['default|before', outcome('before', 'SUCCESS')],
      // REVERSED published, the provider never reversed it: contradicted, and never raised.
      ['default|reversed', outcome('reversed', 'SUCCESS')],
      ['default|agreed', outcome('agreed', 'FAILED')],
    ]);
    const r = unraisedContradictions(
      negatives,
      [
        contradiction('raised', T0 + 5_000),
        contradiction('late', T0 + WATCH + 1_000),
        contradiction('before', T0 + 1_000),
      ],
      outcomes,
      WATCH,
      label,
    );
    assert.equal(r.contradictedByProvider, 5);
    assert.equal(r.raised, 1);
    const byId = r.violations.map((v) => v.split(' ')[0]);
    assert.deepEqual(byId.sort(), ['default/before', 'default/late', 'default/reversed', 'default/silent']);
    assert.match(r.violations.find((v) => v.startsWith('default/late')) ?? '', /past its watch/);
    assert.match(
      r.violations.find((v) => v.startsWith('default/silent')) ?? '',
      /no payouts.payout.contradicted/,
    );
  });

  it('(b) REQUIRES_ATTENTION left while the provider has a terminal answer is reported by reason', () => {
    const commands = [
      command('paid'),
      command('refused'),
      command('lost'),
      command('waiting'),
      command('wd', 'self_withdrawal'),
      command('ok'),
      command('b1', 'batch_transfer', ['e1', 'e2']),
    ];
    const ev = {
      last: new Map([
        ['default|paid', lastEvent('paid', 'REQUIRES_ATTENTION', 'refused_on_resend')],
        ['default|refused', lastEvent('refused', 'REQUIRES_ATTENTION', 'refused_on_resend')],
        ['default|lost', lastEvent('lost', 'REQUIRES_ATTENTION', 'reconciliation_schedule_exhausted')],
        ['default|waiting', lastEvent('waiting', 'REQUIRES_ATTENTION', 'reconciliation_schedule_exhausted')],
        ['default|wd', lastEvent('wd', 'REQUIRES_ATTENTION', 'no_status_endpoint', 'self_withdrawal')],
        ['default|ok', lastEvent('ok', 'SUCCESS')],
      ]),
      lastItem: new Map([
        ['default|e1', lastEvent('e1', 'REQUIRES_ATTENTION', 'not_processed_after_retries', 'batch_entry')],
        ['default|e2', lastEvent('e2', 'SUCCESS', undefined, 'batch_entry')],
      ]),
    };
    const outcomes = new Map([
      ['default|paid', outcome('paid', 'SUCCESS')],
      ['default|refused', outcome('refused', 'FAILED')],
      ['default|lost', outcome('lost', 'NOT_APPLIED')],
      ['default|waiting', outcome('waiting', 'QUEUED')],
      ['default|wd', outcome('wd', 'SUCCESS')],
      ['default|ok', outcome('ok', 'SUCCESS')],
      ['default|e1', outcome('e1', 'REJECTED')],
      ['default|e2', outcome('e2', 'SUCCESS')],
    ]);
    const a = attentionLeft(commands, ev, outcomes);
    // Seven payouts and entries, and the batch itself (COMPLETED-less here: no event, not left).
    assert.equal(a.payouts, 9);
    assert.equal(a.total, 6);
    assert.deepEqual([...a.settledByProvider].sort(), [
      ['not_processed_after_retries (provider: REJECTED)', 1],
      ['refused_on_resend (provider: FAILED)', 1],
      ['refused_on_resend (provider: SUCCESS)', 1],
    ]);
    assert.equal(a.neverReceived, 1);
    assert.equal(a.byReason.get('reconciliation_schedule_exhausted'), 2);
    // A reused entry id is judged by its own check: still counted, never compared.
    const skipping = attentionLeft(commands, ev, outcomes, new Set(['default|paid', 'default|e1']));
    assert.equal(skipping.total, 6);
    assert.deepEqual([...skipping.settledByProvider], [['refused_on_resend (provider: FAILED)', 1]]);
    // (c) 6 of 9 is 6,667 per 10,000.
    assert.deepEqual(attentionOverBudget(a, 6_700), []);
    assert.match(
      attentionOverBudget(a, 100)[0] ?? '',
      /^6667 escalations per 10,000 payouts, batch entries and batches \(6 of 9; 0 of 1 batches\), budget 100/,
    );
  });

  it('(b, c) a batch left to a person is an escalation, and one the provider settled (every entry final) a violation', () => {
    const commands = [
      command('settled', 'batch_transfer', ['s1', 's2']),
      command('queued', 'batch_transfer', ['q1', 'q2']),
      command('lost', 'batch_transfer', ['l1']),
      command('done', 'batch_transfer', ['d1']),
    ];
    const batchEvent = (id: string, status: string, reason?: string) =>
      lastEvent(id, status, reason, 'batch_transfer');
    const ev = {
      last: new Map([
        ['default|settled', batchEvent('settled', 'REQUIRES_ATTENTION', 'reconciliation_schedule_exhausted')],
        ['default|queued', batchEvent('queued', 'REQUIRES_ATTENTION', 'queued_past_provider_maximum')],
        ['default|lost', batchEvent('lost', 'REQUIRES_ATTENTION', 'too_many_send_attempts')],
        ['default|done', batchEvent('done', 'COMPLETED')],
      ]),
      lastItem: new Map([
        ['default|s1', lastEvent('s1', 'PENDING', undefined, 'batch_entry')],
        ['default|s2', lastEvent('s2', 'PENDING', undefined, 'batch_entry')],
        ['default|q1', lastEvent('q1', 'PENDING', undefined, 'batch_entry')],
        ['default|q2', lastEvent('q2', 'SUCCESS', undefined, 'batch_entry')],
        ['default|d1', lastEvent('d1', 'SUCCESS', undefined, 'batch_entry')],
      ]),
    };
    const outcomes = new Map([
      ['default|s1', outcome('s1', 'SUCCESS')],
      ['default|s2', outcome('s2', 'FAILED')],
      ['default|q1', outcome('q1', 'QUEUED')],
      ['default|q2', outcome('q2', 'SUCCESS')],
      ['default|d1', outcome('d1', 'SUCCESS')],
    ]);
    const a = attentionLeft(commands, ev, outcomes);
    // 4 batches and their 6 entries judged; 3 batches left to a person, no entry.
    assert.equal(a.payouts, 10);
    assert.equal(a.total, 3);
    assert.equal(a.batches, 4);
    assert.equal(a.batchesLeft, 3);
    assert.equal(a.byReason.get('batch queued_past_provider_maximum'), 1);
    assert.deepEqual(
      [...a.settledByProvider],
      [['batch reconciliation_schedule_exhausted (provider: every entry final)', 1]],
    );
    assert.match(a.settled[0] ?? '', /^default\/settled .*every entry final \(SUCCESS, FAILED\)/);
    assert.equal(a.neverReceived, 1);
    assert.match(attentionOverBudget(a, 100)[0] ?? '', /\(3 of 10; 3 of 4 batches\)/);
    // An entry id judged elsewhere (reused by a single payout): the batch is counted, never compared.
    assert.equal(attentionLeft(commands, ev, outcomes, new Set(['default|s1'])).settled.length, 0);
  });
});
