import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxClock, istDay, legacyDate } from './clock.js';

describe('SandboxClock', () => {
  it('advancing releases sleepers without real waiting', async () => {
    const clock = new SandboxClock(() => 1_000);
    let done = false;
    const p = clock.sleep(25_000).then(() => (done = true));
    await Promise.resolve();
    assert.equal(done, false);
    clock.advance(25_000);
    await p;
    assert.equal(done, true);
    assert.equal(clock.now(), 26_000);
  });
  it('formats India time', () => {
    const ms = Date.parse('2021-11-24T08:09:25Z');
    assert.equal(legacyDate(ms), '2021-11-24 13:39:25');
    assert.equal(istDay(Date.parse('2021-11-24T18:30:00Z')), '2021-11-25');
  });
});
