import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, SUCCESS_ACCOUNT } from './harness.js';

/**
 * The provider keeps one namespace of transfer ids per merchant, across single transfers and
 * batch entries (issue 29, "a batch entry whose id a single payout reuses").
 */
describe('sandbox: one transfer-id namespace for single transfers and batch entries', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start({ batchDelayMs: 5_000 });
  });
  after(() => h.close());
  beforeEach(() => h.fresh());

  const batch = (batchTransferId: string, transferId: string) =>
    h.post('/payout/v1/requestBatchTransfer', {
      batchTransferId,
      batchFormat: 'BANK_ACCOUNT',
      batch: [{ transferId, amount: '2.50', ...SUCCESS_ACCOUNT, name: 'Batch Payee', phone: '9876543210' }],
    });

  it('a single transfer reusing the id of an accepted, not yet processed batch entry is refused', async () => {
    const id = h.id('X');
    assert.equal((await batch(h.id('B'), id)).body.status, 'SUCCESS');
    const single = await h.direct(SUCCESS_ACCOUNT, { transferId: id });
    assert.equal(single.body.status, 'ERROR', JSON.stringify(single.body));
    assert.equal(single.body.message, 'Transfer Id already exists');
    const v2 = await h.v2('POST', '/payout/transfers', {
      transfer_id: id,
      transfer_amount: 2.5,
      beneficiary_details: { beneficiary_id: 'BENE42' },
    });
    assert.equal(v2.http, 409, JSON.stringify(v2.body));
    assert.equal(v2.body.code, 'transfer_id_already_exists');
    // Once processed, the status endpoints find the entry by its id, and it was paid once.
    await h.advance(5_000);
    const status = await h.get('/payout/v1.2/getTransferStatus', { transferId: id });
    const t = (status.body.data as { transfer: Record<string, unknown> }).transfer;
    assert.equal(t.status, 'SUCCESS');
    assert.equal(t.amount, '2.50');
    const v2status = await h.v2('GET', `/payout/transfers?transfer_id=${id}`);
    assert.equal(v2status.body.status, 'SUCCESS');
    const outcomes = await h.ctl('GET', `/__sandbox/outcomes?transferId=${id}`);
    assert.equal((outcomes.body.outcomes as unknown[]).length, 1);
  });

  it('a single transfer reusing a processed batch entry id is refused "Transfer Id already exists"', async () => {
    const id = h.id('X');
    await batch(h.id('B'), id);
    await h.advance(5_000);
    const single = await h.direct(SUCCESS_ACCOUNT, { transferId: id });
    assert.equal(single.body.message, 'Transfer Id already exists');
  });

  it('a batch entry reusing a single transfer id is refused; the single transfer stands', async () => {
    const id = h.id('X');
    assert.equal(
      (await h.direct(SUCCESS_ACCOUNT, { transferId: id, amount: '7.00' })).body.status,
      'SUCCESS',
    );
    const batchTransferId = h.id('B');
    await batch(batchTransferId, id);
    await h.advance(5_000);
    const res = await h.get('/payout/v1/getBatchTransferStatus', { batchTransferId });
    const rows = (res.body.data as { transfers: Record<string, unknown>[] }).transfers;
    assert.equal(rows[0]?.status, 'FAILED', JSON.stringify(res.body));
    assert.equal(rows[0]?.reason, 'Transfer Id already exists');
    const status = await h.get('/payout/v1.2/getTransferStatus', { transferId: id });
    assert.equal((status.body.data as { transfer: Record<string, unknown> }).transfer.amount, '7.00');
  });
});
