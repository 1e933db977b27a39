import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxClock } from '../core/clock.js';
import { WebhookDispatcher } from './webhook.dispatcher.js';
import { type TransferEvent } from './webhook.types.js';

const event = (i: number): TransferEvent => ({
  kind: 'transfer',
  type: 'TRANSFER_SUCCESS',
  at: 0,
  transferId: `T${i}`,
  referenceId: String(i),
  utr: '',
  acknowledged: 1,
  reason: '',
  status: 'SUCCESS',
  amount: '1.00',
});

function dropped(seed: number): string[] {
  const d = new WebhookDispatcher(new SandboxClock(), 's', {
    target: { url: 'http://127.0.0.1:9/none', version: 'v2' },
    timeoutMs: 100,
    retryBaseMs: 1,
    maxAttempts: 1,
    lowBalanceThreshold: 0n,
  });
  d.configure({ faults: { dropRate: 0.5, seed } });
  for (let i = 0; i < 40; i += 1) d.emit(event(i));
  d.close();
  return d
    .deliveries()
    .filter((x) => x.outcome === 'dropped')
    .map((x) => x.transferId);
}

describe('WebhookDispatcher', () => {
  it('the same seed drops the same webhooks; another seed others', () => {
    const a = dropped(42);
    assert.ok(a.length > 5 && a.length < 35, `about half: ${a.length}`);
    assert.deepEqual(dropped(42), a);
    assert.notDeepEqual(dropped(43), a);
  });

  it('sends nothing without an endpoint, and only the events of its format', () => {
    const d = new WebhookDispatcher(new SandboxClock(), 's', {
      target: undefined,
      timeoutMs: 100,
      retryBaseMs: 1,
      maxAttempts: 1,
      lowBalanceThreshold: 0n,
    });
    d.emit(event(1));
    d.configure({ url: 'http://127.0.0.1:9/none' });
    assert.equal(d.target?.version, 'v2', 'v2 unless told');
    d.emit({ kind: 'account', type: 'LOW_BALANCE_ALERT', at: 0, utr: '', reason: '', fields: {} });
    assert.equal(d.counts.emitted, 0);
    d.configure({ url: null });
    assert.equal(d.target, undefined);
    d.configure({ version: 'v1' });
    d.configure({ url: 'http://127.0.0.1:9/other' });
    assert.deepEqual(d.target, { url: 'http://127.0.0.1:9/other', version: 'v1' }, 'the version is kept');
    d.close();
  });
});
