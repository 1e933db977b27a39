import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LogSampler, RefusalLimiter, sourceKey } from './refusal-guards.js';

describe('LogSampler', () => {
  it('one line per key and interval, the next one saying how many were left out', () => {
    let now = 0;
    const s = new LogSampler(60_000, () => now);
    assert.equal(s.take('a/bad_signature'), 0, 'the first is written');
    assert.equal(s.take('a/bad_signature'), undefined);
    assert.equal(s.take('a/bad_signature'), undefined);
    assert.equal(s.take('a/stale'), 0, 'another key is not held back');
    now = 59_999;
    assert.equal(s.take('a/bad_signature'), undefined);
    now = 60_000;
    assert.equal(s.take('a/bad_signature'), 3, 'three left out');
    assert.equal(s.take('a/bad_signature'), undefined);
  });

  it('keeps a bounded number of keys', () => {
    const s = new LogSampler(60_000, () => 0, 2);
    s.take('a');
    s.take('b');
    s.take('c');
    assert.equal(s.take('a'), 0, 'the oldest key was forgotten: written again');
    assert.equal(s.take('c'), undefined);
  });
});

describe('RefusalLimiter', () => {
  it('past the limit in a window: Retry-After until the window ends; then a fresh budget', () => {
    let now = 0;
    const l = new RefusalLimiter(3, 60_000, () => now);
    for (let i = 0; i < 3; i += 1) {
      assert.equal(l.retryAfterSeconds('10.0.0.1'), 0);
      l.refused('10.0.0.1');
    }
    assert.equal(l.retryAfterSeconds('10.0.0.1'), 60);
    assert.equal(l.retryAfterSeconds('10.0.0.2'), 0, 'another source is not limited');
    now = 59_001;
    assert.equal(l.retryAfterSeconds('10.0.0.1'), 1);
    now = 60_000;
    assert.equal(l.retryAfterSeconds('10.0.0.1'), 0);
  });

  it('keeps a bounded number of sources', () => {
    const l = new RefusalLimiter(1, 60_000, () => 0, 4);
    for (const s of ['a', 'b', 'c', 'd', 'e']) l.refused(s);
    assert.equal(l.retryAfterSeconds('e'), 60, 'the newest is kept');
    assert.equal(l.retryAfterSeconds('a'), 0, 'the oldest went');
  });
});

describe('sourceKey', () => {
  it('IPv4 as is (also IPv4-mapped), IPv6 by its /64', () => {
    assert.equal(sourceKey('203.0.113.7'), '203.0.113.7');
    assert.equal(sourceKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(sourceKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(sourceKey('2001:db8:1:2::9'), '2001:db8:1:2::/64');
    assert.equal(sourceKey('2001:0db8:0001:0002:ffff::1'), '2001:db8:1:2::/64');
    assert.equal(sourceKey('::1'), '0:0:0:0::/64');
    assert.equal(sourceKey(undefined), 'unknown');
  });
});
