import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxClock } from './clock.js';
import { FaultRegistry } from './faults.js';
import { RateLimiter } from './rate-limit.js';

describe('RateLimiter', () => {
  it('counts per endpoint in one-minute windows on the sandbox clock', () => {
    const clock = new SandboxClock(() => 120_000);
    const limiter = new RateLimiter(clock, { transfer: 2, status: 0, authorize: 1, other: 1 });
    assert.equal(limiter.take('directTransfer', 'transfer').remaining, 1);
    assert.equal(limiter.take('directTransfer', 'transfer').allowed, true);
    const refused = limiter.take('directTransfer', 'transfer');
    assert.equal(refused.allowed, false);
    assert.equal(refused.retry, 60);
    assert.equal(limiter.take('requestTransfer', 'transfer').allowed, true);
    assert.equal(limiter.take('getTransferStatus', 'status').allowed, true, '0 disables');
    clock.advance(60_000);
    assert.equal(limiter.take('directTransfer', 'transfer').allowed, true);
    assert.deepEqual(limiter.refusals(), { directTransfer: 1 });
  });

  it('a shorter window allows the same share of the per-minute limit per window', () => {
    const clock = new SandboxClock(() => 120_000);
    const limiter = new RateLimiter(clock, { transfer: 600, status: 0, authorize: 0, other: 0 }, 10_000);
    for (let i = 0; i < 100; i += 1) assert.equal(limiter.take('directTransfer', 'transfer').allowed, true);
    const refused = limiter.take('directTransfer', 'transfer');
    assert.equal(refused.allowed, false);
    assert.equal(refused.limit, 100);
    assert.equal(refused.retry, 10);
    clock.advance(9_999);
    assert.equal(limiter.take('directTransfer', 'transfer').allowed, false);
    clock.advance(1);
    assert.equal(limiter.take('directTransfer', 'transfer').allowed, true);
    assert.deepEqual(limiter.refusals(), { directTransfer: 2 });
    limiter.reset();
    assert.deepEqual(limiter.refusals(), {});
  });
});

describe('FaultRegistry', () => {
  it('applies a fault the given number of times, endpoint or wildcard', () => {
    const faults = new FaultRegistry();
    faults.add({ endpoint: 'cardpay', reset: true, times: 2 });
    faults.add({ endpoint: '*', latencyMs: 5 });
    assert.equal(faults.take('cardpay')?.reset, true);
    assert.equal(faults.take('cardpay')?.reset, true);
    assert.equal(faults.take('cardpay')?.latencyMs, 5);
    faults.clear('*');
    assert.equal(faults.take('cardpay'), undefined);
  });
  it('a 429 burst lasts its count', () => {
    const faults = new FaultRegistry();
    faults.add({ endpoint: 'authorize', burst429: 2 });
    assert.ok(faults.take('authorize'));
    assert.ok(faults.take('authorize'));
    assert.equal(faults.take('authorize'), undefined);
  });
});
