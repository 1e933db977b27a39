import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, SUCCESS_ACCOUNT } from './harness.js';

type Obj = Record<string, unknown>;

/**
 * In-doubt faults (a 520, a 5xx, a dropped connection, no answer) sometimes apply the transfer:
 * with `applyRate` the provider may have paid what it answered 520 to (issue 29).
 */
describe('sandbox: in-doubt faults that sometimes apply the request', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(() => h.close());
  beforeEach(() => h.fresh());

  const paid = async (transferId: string): Promise<number> => {
    const res = await h.ctl('GET', `/__sandbox/outcomes?transferId=${transferId}`);
    const o = (res.body.outcomes as Obj[])[0];
    return o === undefined ? 0 : Number(o.paid);
  };

  it('a 520 with applyRate 1 has paid the transfer; the status endpoint knows it', async () => {
    await h.fault({ endpoint: 'directTransfer', subCode520: true, applyRate: 1, times: 1 });
    const transferId = h.id();
    const res = await h.direct(SUCCESS_ACCOUNT, { transferId });
    assert.equal(res.http, 520);
    assert.equal(res.body.message, 'Transfer triggered, no response from bank');
    assert.equal(await paid(transferId), 1);
    const status = await h.get('/payout/v1.2/getTransferStatus', { transferId });
    assert.equal((status.body.data as { transfer: Obj }).transfer.status, 'SUCCESS');
  });

  it('without applyRate a 520 never applies (the default stays deterministic)', async () => {
    await h.fault({ endpoint: 'directTransfer', subCode520: true, times: 1 });
    const transferId = h.id();
    assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId })).http, 520);
    assert.equal(await paid(transferId), 0);
  });

  it('a 5xx and a dropped connection with applyRate 1 have applied it too (v2)', async () => {
    await h.fault({ endpoint: 'transferV2', httpStatus: 503, applyRate: 1, times: 1 });
    await h.fault({ endpoint: 'transferV2', reset: true, applyRate: 1, times: 1 });
    const body = (transfer_id: string) => ({
      transfer_id,
      transfer_amount: 10,
      beneficiary_details: { beneficiary_id: 'BENE42' },
    });
    const a = h.id();
    assert.equal((await h.v2('POST', '/payout/transfers', body(a))).http, 503);
    const b = h.id();
    await assert.rejects(h.v2('POST', '/payout/transfers', body(b)));
    assert.equal(await paid(a), 1);
    assert.equal(await paid(b), 1);
  });

  it('random mode: applyRate applies a seeded share of in-doubt faults, the same ones for the same seed', async () => {
    const run = async (): Promise<boolean[]> => {
      await h.fresh();
      await h.ctl('POST', '/__sandbox/fault-mode', {
        rate: 1,
        seed: 7,
        endpoints: ['directTransfer'],
        kinds: ['subCode520', 'http5xx'],
        applyRate: 0.5,
      });
      const applied: boolean[] = [];
      for (let i = 0; i < 20; i += 1) {
        const transferId = `DOUBT${i}`;
        const res = await h.direct(SUCCESS_ACCOUNT, { transferId });
        assert.ok(res.http >= 500, JSON.stringify(res.body));
        applied.push((await paid(transferId)) === 1);
      }
      const view = await h.ctl('GET', '/__sandbox/fault-mode');
      assert.equal(view.body.appliedInDoubt, applied.filter(Boolean).length);
      return applied;
    };
    const first = await run();
    const n = first.filter(Boolean).length;
    assert.ok(n > 0 && n < 20, `some applied, some not: ${n} of 20`);
    assert.deepEqual(await run(), first, 'deterministic under the seed');
  });

  it('random mode without applyRate applies none of them', async () => {
    await h.ctl('POST', '/__sandbox/fault-mode', {
      rate: 1,
      seed: 7,
      endpoints: ['directTransfer'],
      kinds: ['subCode520', 'http5xx'],
    });
    for (let i = 0; i < 5; i += 1) {
      const transferId = h.id();
      await h.direct(SUCCESS_ACCOUNT, { transferId });
      assert.equal(await paid(transferId), 0);
    }
  });
});
