import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StoreClockOffset } from './store-clock-offset.js';

describe('the store clock offset (shared rate budget)', () => {
  it('is the round trip alone on the first reading', () => {
    // Store read 1,000 while the local clock went from 100 to 120: offset within [880, 900].
    assert.deepEqual(new StoreClockOffset().offset(1_000, 100, 120), { lo: 880, hi: 900 });
  });

  it('narrows to the intersection of recent readings, widened by their age', () => {
    const c = new StoreClockOffset();
    c.offset(1_000, 100, 120); // [880, 900]
    const b = c.offset(2_010, 1_100, 1_130); // [880, 910] now; the first, 1,010 ms old: ±0.505
    assert.equal(b.lo, 880);
    assert.ok(Math.abs(b.hi - 900.505) < 1e-9, `hi ${b.hi}`);
  });

  it('drops older readings that contradict a new one (a clock stepped)', () => {
    const c = new StoreClockOffset();
    c.offset(1_000, 100, 120); // [880, 900]
    assert.deepEqual(c.offset(5_000, 200, 210), { lo: 4_790, hi: 4_800 });
    // The contradicted reading is gone: the next one ([4,795, 4,820]) narrows with the second only
    // (kept, it would contradict again and leave the round trip alone).
    const n = c.offset(5_100, 280, 305);
    assert.equal(n.lo, 4_795);
    assert.ok(Math.abs(n.hi - 4_800.0475) < 1e-9, `hi ${n.hi}`);
  });

  it('forgets readings older than five seconds', () => {
    const c = new StoreClockOffset();
    c.offset(1_000, 100, 120); // [880, 900]
    assert.deepEqual(c.offset(6_960, 6_000, 6_100), { lo: 860, hi: 960 });
  });
});
