import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, SUCCESS_ACCOUNT, type Res } from './harness.js';

type Transfer = Record<string, unknown>;
const acct = (bankAccount: string, ifsc: string) => ({ bankAccount, ifsc });
const transferOf = (res: Res): Transfer => (res.body.data as { transfer: Transfer }).transfer;

/** Outcomes driven by test data, seen through the status endpoints as the sandbox clock moves. */
describe('sandbox lifecycles', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start({ pendingDelayMs: 60_000 });
  });
  after(() => h.close());
  beforeEach(() => h.fresh());

  const status = async (transferId: string): Promise<Transfer> =>
    transferOf(await h.get('/payout/v1.2/getTransferStatus', { transferId }));
  const balance = async (): Promise<string> =>
    String((await h.ctl('GET', '/__sandbox/balance')).body.balance);

  it('debits the balance in exact paise', async () => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '100.00' });
    await h.direct(SUCCESS_ACCOUNT, { amount: 10.1 });
    await h.direct(SUCCESS_ACCOUNT, { amount: '1.20' });
    assert.equal(await balance(), '88.70');
  });

  it('pending, then success', async () => {
    const transferId = h.id();
    const res = await h.direct(acct('00224412311300', 'YESB0000001'), { transferId });
    assert.deepEqual(res.body.data, {
      referenceId: (res.body.data as Transfer).referenceId,
      utr: '',
      acknowledged: 0,
    });
    let t = await status(transferId);
    assert.equal(t.status, 'PENDING');
    assert.equal(t.processedOn, '0000-00-00 00:00:00');
    await h.advance(60_000);
    t = await status(transferId);
    assert.equal(t.status, 'SUCCESS');
    assert.match(String(t.utr), /^SBX\d+$/);
    assert.match(String(t.processedOn), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('pending, then failure gives the money back', async () => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '50.00' });
    const transferId = h.id();
    await h.direct(acct('7766666351000', 'YESB0000001'), { transferId });
    assert.equal(await balance(), '40.00');
    await h.advance(60_000);
    const t = await status(transferId);
    assert.equal(t.status, 'FAILED');
    assert.equal(t.reason, 'BENEFICIARY_BANK_OFFLINE');
    assert.equal(await balance(), '50.00');
  });

  it('success, then reversed', async () => {
    const transferId = h.id();
    const res = await h.direct(acct('02014457596969', 'CITI0000001'), { transferId });
    assert.equal(res.body.subCode, '200');
    assert.equal((await status(transferId)).status, 'SUCCESS');
    await h.advance(60_000);
    const t = await status(transferId);
    assert.equal(t.status, 'REVERSED');
    assert.equal(t.reason, 'INVALID_ACCOUNT_FAIL');
  });

  it('pending stays pending', async () => {
    const transferId = h.id();
    await h.direct(acct('007711000031', 'HDFC0000077'), { transferId });
    await h.advance(24 * 60 * 60_000);
    await h.authorize();
    assert.equal((await status(transferId)).status, 'PENDING');
  });

  it('looks up by referenceId on both status paths', async () => {
    const res = await h.direct(SUCCESS_ACCOUNT);
    const referenceId = String((res.body.data as Transfer).referenceId);
    const v1 = await h.get('/payout/v1/getTransferStatus', { referenceId });
    assert.equal(transferOf(v1).referenceId, referenceId);
  });

  it('25 s with no answer, then success (the sandbox clock releases the answer)', async () => {
    const transferId = h.id();
    let answered = false;
    const pending = h.direct(acct('34978321547298', 'KKBK0000001'), { transferId }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(answered, false);
    assert.equal((await status(transferId)).status, 'PENDING');
    await h.advance(25_000);
    const res = await pending;
    assert.equal(res.body.status, 'SUCCESS');
    assert.equal((await status(transferId)).status, 'SUCCESS');
  });

  it('v2: success@upi completes; failure@upi is RECEIVED then FAILED', async () => {
    const ok = h.id('V');
    const okRes = await h.v2('POST', '/payout/transfers', {
      transfer_id: ok,
      transfer_token: await h.transferToken(ok),
      transfer_amount: '12.34',
      transfer_mode: 'upi',
    });
    assert.equal(okRes.http, 200);
    assert.equal(okRes.body.status, 'SUCCESS');
    assert.equal(okRes.body.status_code, 'COMPLETED');
    assert.equal(okRes.body.transfer_amount, 12.34);
    // v2 dates are UTC with Z (the provider's OpenAPI document: 2021-11-24T13:39:25Z).
    assert.match(String(okRes.body.added_on), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const bad = h.id('V');
    const badRes = await h.v2('POST', '/payout/transfers', {
      transfer_id: bad,
      transfer_token: await h.transferToken(bad, 'failure@upi'),
      transfer_amount: '1.00',
      transfer_mode: 'upi',
    });
    assert.equal(badRes.body.status, 'RECEIVED');
    assert.equal(badRes.body.transfer_service_charge, undefined);
    await h.advance(60_000);
    const later = await h.v2('GET', `/payout/transfers?cf_transfer_id=${String(badRes.body.cf_transfer_id)}`);
    assert.equal(later.body.status, 'FAILED');
    assert.equal(later.body.status_code, 'INVALID_BENE_VPA');
  });

  it('batch: PENDING 201, then one result per entry', async () => {
    const batchTransferId = h.id('BATCH');
    const entry = (bankAccount: string, ifsc: string) => ({
      transferId: h.id(),
      amount: '2.50',
      bankAccount,
      ifsc,
      name: 'Batch Payee',
      phone: '9876543210',
    });
    const res = await h.post('/payout/v1/requestBatchTransfer', {
      batchTransferId,
      batchFormat: 'BANK_ACCOUNT',
      batch: [
        entry('026291800001191', 'YESB0000262'),
        entry('026291800001190', 'YESB0000262'),
        entry('00224412311300', 'YESB0000001'),
      ],
    });
    assert.equal(typeof (res.body.data as Transfer).referenceId, 'number');
    const first = await h.get('/payout/v1/getBatchTransferStatus', { batchTransferId });
    assert.equal(first.body.status, 'PENDING');
    assert.equal(first.body.subCode, '201');
    await h.advance(5_000);
    const done = await h.get('/payout/v1/getBatchTransferStatus', { batchTransferId });
    const data = done.body.data as { rowCount: number; transfers: Transfer[] };
    assert.equal(data.rowCount, 3);
    assert.deepEqual(
      data.transfers.map((t) => t.status),
      ['SUCCESS', 'FAILED', 'PENDING'],
    );
    assert.equal(data.transfers[0]?.amount, '2.50');
    assert.match(String(data.transfers[0]?.addedOn), /Z$/);
    await h.advance(60_000);
    const settled = await h.get('/payout/v1/getBatchTransferStatus', { batchTransferId });
    assert.equal((settled.body.data as { transfers: Transfer[] }).transfers[2]?.status, 'SUCCESS');
  });

  it('self withdrawal: 3 per India day, a new day allows more', async () => {
    const send = () => h.post('/payout/v1/selfWithdrawal', { withdrawalId: h.id('W'), amount: 1 });
    for (let i = 0; i < 3; i += 1) assert.equal((await send()).body.statusCode, 200);
    assert.equal((await send()).body.subCode, '412');
    await h.advance(24 * 60 * 60_000);
    await h.authorize();
    assert.equal((await send()).body.statusCode, 200);
  });
});
