import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Diagnostics, type ProviderResult } from './core/outcome.js';
import { ProviderAccessState } from './provider-access-state.js';

const d = (over: Partial<Diagnostics> = {}): Diagnostics => ({
  endpoint: 'requestTransfer',
  requestId: 'r',
  sent: true,
  attempts: 1,
  durationMs: 3,
  httpStatus: 200,
  ...over,
});

describe('ProviderAccessState', () => {
  it('marks an account on fatal-config and clears it on the next answer that proves access', () => {
    const s = new ProviderAccessState(() => 0);
    const fatal: ProviderResult<unknown> = {
      outcome: 'fatal-config',
      reason: 'IP not whitelisted',
      diagnostics: d({ httpStatus: 403 }),
    };
    s.record('main', fatal);
    s.record('other', { outcome: 'success', data: {}, diagnostics: d() });
    assert.deepEqual(s.problems(), [
      { accountId: 'main', reason: 'IP not whitelisted', since: '1970-01-01T00:00:00.000Z' },
    ]);
    // Neither a timeout, a retry-safe answer nor a local refusal proves access.
    s.record('main', { outcome: 'unknown', reason: 'timeout', diagnostics: d({ httpStatus: undefined }) });
    s.record('main', { outcome: 'retry-safe', reason: '429', diagnostics: d({ httpStatus: 429 }) });
    s.record('main', {
      outcome: 'failed',
      kind: 'invalid-request',
      reason: 'bad',
      diagnostics: d({ sent: false, httpStatus: undefined }),
    });
    assert.equal(s.problems().length, 1);
    // A business failure the provider sent does.
    s.record('main', {
      outcome: 'failed',
      kind: 'rejected',
      reason: 'no',
      diagnostics: d({ httpStatus: 400 }),
    });
    assert.deepEqual(s.problems(), []);
  });

  it('a balance read neither marks nor clears an account (issue 32: a scheduled read the service can do without)', () => {
    const s = new ProviderAccessState(() => 0);
    s.record('main', {
      outcome: 'fatal-config',
      reason: 'APIs not enabled',
      diagnostics: d({ endpoint: 'getBalance', httpStatus: 403 }),
    });
    assert.deepEqual(s.problems(), []);
    s.record('main', {
      outcome: 'fatal-config',
      reason: 'IP not whitelisted',
      diagnostics: d({ httpStatus: 403 }),
    });
    s.record('main', { outcome: 'success', data: {}, diagnostics: d({ endpoint: 'getBalance' }) });
    assert.equal(s.problems().length, 1, 'a balance answer proves nothing for the calls that pay');
  });
});
