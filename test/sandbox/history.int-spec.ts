import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, SUCCESS_ACCOUNT } from './harness.js';

interface Item {
  transferDate: string;
  amount: string;
  mode: string;
  beneId: string;
  status: string;
}

describe('sandbox beneHistory', () => {
  let h: Harness;
  let beneId = '';
  before(async () => {
    h = await Harness.start();
    beneId = await h.addBene(SUCCESS_ACCOUNT);
    for (let i = 1; i <= 30; i += 1) {
      const res = await h.post('/payout/v1.2/requestTransfer', { beneId, amount: i, transferId: `H${i}` });
      assert.equal(res.body.status, 'SUCCESS');
      await h.advance(60 * 60_000);
      await h.authorize();
    }
    // Make every transfer at least a day old so an endDate of yesterday includes them.
    await h.advance(2 * 24 * 60 * 60_000);
    await h.authorize();
  });
  after(() => h.close());

  const page = async (query: Record<string, string>): Promise<Item[]> => {
    const res = await h.get('/payout/v1/beneHistory', { beneId, ...query });
    assert.equal(res.body.subCode, '200', JSON.stringify(res.body));
    return (res.body.data as { transfers: Item[] }).transfers;
  };

  it('pages 25 by default, latest first', async () => {
    const first = await page({});
    assert.equal(first.length, 25);
    assert.equal(first[0]?.amount, '30.00');
    assert.equal(first[0]?.mode, 'IMPS');
    assert.equal(first[0]?.status, 'SUCCESS');
    assert.match(first[0]?.transferDate ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const second = await page({ page: '2' });
    assert.deepEqual(
      second.map((t) => t.amount),
      ['5.00', '4.00', '3.00', '2.00', '1.00'],
    );
  });

  it('honours perPage and an empty page past the end', async () => {
    assert.equal((await page({ perPage: '10', page: '3' })).length, 10);
    assert.equal((await page({ page: '9' })).length, 0);
  });

  it('filters by an India-day date range', async () => {
    const clock = await h.ctl('GET', '/__sandbox/clock');
    const yesterday = new Date(Number(clock.body.now) + 330 * 60_000 - 86_400_000).toISOString().slice(0, 10);
    const all = await page({ startDate: '2000-01-01', endDate: yesterday, perPage: '25' });
    assert.equal(all.length, 25);
    const none = await page({ startDate: '2000-01-01', endDate: '2000-01-02' });
    assert.equal(none.length, 0);
  });

  it('refuses an endDate of today', async () => {
    const clock = await h.ctl('GET', '/__sandbox/clock');
    const today = new Date(Number(clock.body.now) + 330 * 60_000).toISOString().slice(0, 10);
    const res = await h.get('/payout/v1/beneHistory', { beneId, startDate: '2000-01-01', endDate: today });
    assert.equal(res.body.message, 'Invalid date range');
  });
});
