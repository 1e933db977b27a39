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
  it('a child clock (a merchant) runs on its parent and may be moved on its own', async () => {
    const global = new SandboxClock(() => 1_000);
    const a = global.child();
    const b = global.child();
    b.advance(5_000);
    assert.deepEqual([global.now(), a.now(), b.now(), b.offset], [1_000, 1_000, 6_000, 5_000]);
    let woke = false;
    const p = a.sleep(10_000).then(() => (woke = true));
    global.advance(10_000);
    await p;
    assert.equal(woke, true, "moving the global clock wakes a merchant's sleepers");
    assert.deepEqual([a.now(), b.now()], [11_000, 16_000]);
  });
  it('formats India time', () => {
    const ms = Date.parse('2021-11-24T08:09:25Z');
    assert.equal(legacyDate(ms), '2021-11-24 13:39:25');
    assert.equal(istDay(Date.parse('2021-11-24T18:30:00Z')), '2021-11-25');
  });
});
