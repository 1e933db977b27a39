import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('allows a burst, then books slots in order at the configured rate', () => {
    let t = 0;
    const b = new TokenBucket(60, () => t); // 1 per second, burst 1
    assert.equal(b.reserve(10_000), 0);
    assert.equal(b.reserve(10_000), 1000);
    assert.equal(b.reserve(10_000), 2000);
    t = 5000;
    assert.equal(b.reserve(10_000), 0);
  });

  it('refuses without booking when the wait exceeds the cap', () => {
    let t = 0;
    const b = new TokenBucket(60, () => t);
    b.reserve(0);
    assert.equal(b.reserve(500), undefined);
    t = 1000;
    assert.equal(b.reserve(0), 0);
  });

  it('holds everyone back while paused by a 429', () => {
    let t = 0;
    const b = new TokenBucket(6000, () => t);
    b.pauseUntil(3000);
    assert.equal(b.reserve(10_000), 3000);
    t = 3000;
    assert.equal(b.reserve(10_000), 0);
  });
});

describe('backoffMs', () => {
  it('grows exponentially, is capped, and jitters within [cap/2, cap]', () => {
    assert.equal(
      backoffMs(1, 100, 1000, () => 1),
      100,
    );
    assert.equal(
      backoffMs(3, 100, 1000, () => 1),
      400,
    );
    assert.equal(
      backoffMs(10, 100, 1000, () => 1),
      1000,
    );
    assert.equal(
      backoffMs(10, 100, 1000, () => 0),
      500,
    );
  });
});
