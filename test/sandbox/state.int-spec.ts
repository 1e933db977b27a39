import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CARD_TOKENS } from '#sandbox';
import { Harness, SUCCESS_ACCOUNT } from './harness.js';

interface Received {
  accepted: number;
  initiations: { endpoint: string; accepted: boolean; answer: string }[];
}

/** What integrators lean on for idempotency: one transferId, at most one accepted transfer. */
describe('sandbox state and idempotency', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(() => h.close());
  beforeEach(() => h.fresh());

  const received = async (transferId: string): Promise<Received> =>
    (await h.ctl('GET', `/__sandbox/received?transferId=${transferId}`)).body as unknown as Received;

  it('concurrent sends of one transferId: exactly one accepted, one debit', async () => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '1000.00' });
    const transferId = h.id();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => h.direct(SUCCESS_ACCOUNT, { transferId, amount: '10.00' })),
    );
    assert.equal(answers.filter((a) => a.body.subCode === '200').length, 1);
    assert.equal(answers.filter((a) => a.body.subCode === '409').length, 19);
    const log = await received(transferId);
    assert.equal(log.initiations.length, 20);
    assert.equal(log.accepted, 1);
    assert.equal((await h.ctl('GET', '/__sandbox/balance')).body.balance, '990.00');
  });

  it('a transferId is unique across endpoints, each answering its own row', async () => {
    const transferId = h.id();
    assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId })).body.subCode, '200');
    const card = await h.post('/payout/v1/cardpay', {
      token: CARD_TOKENS.success[0],
      amount: '1.00',
      transferId,
    });
    assert.equal(card.body.subCode, '400');
    const beneId = await h.addBene(SUCCESS_ACCOUNT);
    const req = await h.post('/payout/v1.2/requestTransfer', { beneId, amount: 1, transferId });
    assert.equal(req.body.subCode, '400');
    assert.equal(req.body.message, 'Transfer Id already exists');
  });

  it('a refused request does not use up the transferId', async () => {
    const transferId = h.id();
    assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId, amount: '0.10' })).body.subCode, '422');
    assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId })).body.subCode, '200');
    const log = await received(transferId);
    assert.deepEqual(
      log.initiations.map((i) => [i.accepted, i.answer]),
      [
        [false, '422'],
        [true, '200'],
      ],
    );
  });

  it('v2: a transfer token is single use even when sent twice at once', async () => {
    const transferId = h.id('V');
    const token = await h.transferToken(transferId);
    const body = {
      transfer_id: transferId,
      transfer_token: token,
      transfer_amount: '1.00',
      transfer_mode: 'upi',
    };
    const [a, b] = await Promise.all([
      h.v2('POST', '/payout/transfers', body),
      h.v2('POST', '/payout/transfers', body),
    ]);
    assert.deepEqual([a.http, b.http].sort(), [200, 422]);
    assert.equal((await received(transferId)).accepted, 1);
  });

  it('insufficient balance on v2 is a FAILED transfer, not an error', async () => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '0.50' });
    const transferId = h.id('V');
    const res = await h.v2('POST', '/payout/transfers', {
      transfer_id: transferId,
      transfer_token: await h.transferToken(transferId),
      transfer_amount: '1.00',
      transfer_mode: 'upi',
    });
    assert.equal(res.http, 200);
    assert.equal(res.body.status, 'FAILED');
    assert.equal(res.body.status_code, 'INSUFFICIENT_BALANCE');
  });

  it('reset forgets transfers, beneficiaries and balance changes', async () => {
    const transferId = h.id();
    await h.direct(SUCCESS_ACCOUNT, { transferId });
    await h.fresh();
    const st = await h.get('/payout/v1/getTransferStatus', { transferId });
    assert.equal(st.body.subCode, '404');
    assert.equal((await h.ctl('GET', '/__sandbox/balance')).body.balance, '10000000.00');
  });
});
