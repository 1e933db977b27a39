import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, SUCCESS_ACCOUNT, type Res } from './harness.js';
import { WebhookReceiver } from './webhook-receiver.js';

type Obj = Record<string, unknown>;

/** Test accounts (docs/SANDBOX.md, "Test data"). */
const PENDING_THEN_SUCCESS = { bankAccount: '00224412311300', ifsc: 'YESB0000001' };
const PENDING_THEN_FAILURE = { bankAccount: '7766666351000', ifsc: 'YESB0000001' };
const SUCCESS_THEN_REVERSED = { bankAccount: '02014457596969', ifsc: 'CITI0000001' };
const PENDING_DELAY = 60_000;

/**
 * The merchant's balance over real HTTP (issue 32 item 1, sandbox side): the provider's Get
 * Balance (v1 and v1.2) with ledger and available balances, payouts, batch entries, internal
 * transfers and self withdrawals moving it, the service charge and its tax per payout, refunds
 * and reversals, refusal or queuing when a payout does not fit, and the balance webhooks.
 */
describe('sandbox: balance and fees', () => {
  let h: Harness;
  let rx: WebhookReceiver;
  before(async () => {
    rx = await WebhookReceiver.start();
    h = await Harness.start({
      pendingDelayMs: PENDING_DELAY,
      acknowledgeDelayMs: 1_000,
      batchDelayMs: 1_000,
    });
  });
  after(async () => {
    await h.close();
    await rx.close();
  });
  beforeEach(async () => {
    await h.fresh();
    rx.clear();
  });

  const getBalance = async (
    path = '/payout/v1/getBalance',
  ): Promise<{ balance: string; available: string }> => {
    const res = await h.get(path);
    assert.equal(res.http, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'SUCCESS');
    assert.equal(res.body.subCode, '200');
    assert.equal(res.body.message, 'Ledger balance for the account');
    const data = res.body.data as { balance: unknown; availableBalance: unknown };
    assert.equal(typeof data.balance, 'string', 'the provider writes balances as decimal strings');
    assert.equal(typeof data.availableBalance, 'string');
    return { balance: String(data.balance), available: String(data.availableBalance) };
  };
  const setBalance = (balance: string) => h.ctl('POST', '/__sandbox/balance', { balance });
  const setCharge = (transferCharge: string) => h.ctl('POST', '/__sandbox/fees', { transferCharge });
  const direct = (account: { bankAccount: string; ifsc: string }, amount: string, transferId = h.id()) =>
    h.direct(account, { transferId, amount });
  const v2Transfer = (transferId: string, account: { bankAccount: string; ifsc: string }, amount: number) =>
    h.v2('POST', '/payout/transfers', {
      transfer_id: transferId,
      transfer_amount: amount,
      transfer_mode: 'banktransfer',
      beneficiary_details: {
        beneficiary_name: 'Test Payee',
        beneficiary_instrument_details: { bank_account_number: account.bankAccount, bank_ifsc: account.ifsc },
      },
    });
  const v2Status = async (transferId: string): Promise<Obj> => {
    const res = await h.v2('GET', `/payout/transfers?transfer_id=${transferId}`);
    assert.equal(res.http, 200, JSON.stringify(res.body));
    return res.body;
  };
  const advance = async (ms: number): Promise<void> => {
    await h.advance(ms);
    await h.authorize();
  };

  it('Get Balance answers on v1 and v1.2 with bearer auth, the ledger and available balances as the provider shapes them', async () => {
    await setBalance('1000.00');
    assert.deepEqual(await getBalance(), { balance: '1000.00', available: '1000.00' });
    assert.deepEqual(await getBalance('/payout/v1.2/getBalance'), {
      balance: '1000.00',
      available: '1000.00',
    });
    const noToken = await h.call('GET', '/payout/v1/getBalance', undefined, { token: null });
    assert.equal(noToken.body.subCode, '412');
    const badToken = await h.call('GET', '/payout/v1.2/getBalance', undefined, { token: 'x.y.z' });
    assert.equal(badToken.body.subCode, '403');
  });

  it('by default nothing is charged: a payout takes its amount only, and the transfer object shows zero fees', async () => {
    await setBalance('1000.00');
    assert.deepEqual((await h.ctl('GET', '/__sandbox/fees')).body, {
      transferCharge: '0.00',
      transferTax: '0.00',
    });
    const transferId = h.id();
    assert.equal((await v2Transfer(transferId, SUCCESS_ACCOUNT, 100)).http, 200);
    assert.deepEqual(await getBalance(), { balance: '900.00', available: '900.00' });
    const t = await v2Status(transferId);
    assert.equal(t.transfer_service_charge, 0);
    assert.equal(t.transfer_service_tax, 0);
  });

  it('a pending payout leaves the available balance at once and the ledger once paid; a failed one gives both back', async () => {
    await setBalance('1000.00');
    const paid = h.id();
    const failed = h.id();
    assert.equal((await direct(PENDING_THEN_SUCCESS, '100.00', paid)).body.status, 'PENDING');
    assert.equal((await direct(PENDING_THEN_FAILURE, '50.00', failed)).body.status, 'PENDING');
    // Ledger: what is in the account; available: ledger minus the two pending transfers.
    assert.deepEqual(await getBalance(), { balance: '1000.00', available: '850.00' });
    await advance(PENDING_DELAY);
    assert.deepEqual(await getBalance(), { balance: '900.00', available: '900.00' });
    const ctl = (await h.ctl('GET', '/__sandbox/balance')).body;
    assert.deepEqual(ctl, { balance: '900.00', availableBalance: '900.00', ledgerBalance: '900.00' });
  });

  it('the service charge and 18 % GST on it go with every payout, shown on the v2 transfer once paid, returned on a reversal', async () => {
    await setBalance('1000.00');
    assert.deepEqual((await setCharge('3.00')).body, { transferCharge: '3.00', transferTax: '0.54' });
    const paid = h.id();
    const reversed = h.id();
    const pending = h.id();
    await v2Transfer(paid, SUCCESS_ACCOUNT, 100);
    await v2Transfer(reversed, SUCCESS_THEN_REVERSED, 200);
    const received = await v2Transfer(pending, PENDING_THEN_SUCCESS, 10);
    assert.equal(received.body.transfer_service_charge, undefined, 'not settled: no fee fields yet');
    // 1000 - (100 + 3.54) - (200 + 3.54) - (10 + 3.54), the last one pending.
    assert.deepEqual(await getBalance(), { balance: '692.92', available: '679.38' });
    const t = await v2Status(paid);
    assert.equal(t.status, 'SUCCESS');
    assert.equal(t.transfer_service_charge, 3);
    assert.equal(t.transfer_service_tax, 0.54);
    await advance(PENDING_DELAY + 1_000);
    const r = await v2Status(reversed);
    assert.equal(r.status, 'REVERSED');
    assert.equal(r.transfer_service_charge, 3, 'what was charged, given back with the amount');
    // The reversal returns 203.54; the pending one is paid.
    assert.deepEqual(await getBalance(), { balance: '882.92', available: '882.92' });
  });

  it('a payout refused or failed at the bank is charged nothing', async () => {
    await setBalance('1000.00');
    await setCharge('5.00');
    const failed = h.id();
    await v2Transfer(failed, PENDING_THEN_FAILURE, 100);
    await advance(PENDING_DELAY);
    const t = await v2Status(failed);
    assert.equal(t.status, 'FAILED');
    assert.equal(t.transfer_service_charge, 0);
    assert.equal(t.transfer_service_tax, 0);
    assert.deepEqual(await getBalance(), { balance: '1000.00', available: '1000.00' });
  });

  it('a payout whose amount fits but not with its fee is refused for insufficient balance (v1) or FAILED (v2)', async () => {
    await setBalance('100.00');
    await setCharge('3.00');
    const v1 = await direct(SUCCESS_ACCOUNT, '100.00');
    assert.equal(v1.body.status, 'ERROR');
    assert.match(String(v1.body.message), /insufficient balance/i);
    const transferId = h.id();
    const v2 = await v2Transfer(transferId, SUCCESS_ACCOUNT, 100);
    assert.equal(v2.body.status, 'FAILED');
    assert.equal(v2.body.status_code, 'INSUFFICIENT_BALANCE');
    assert.deepEqual(await getBalance(), { balance: '100.00', available: '100.00' });
    assert.equal(
      (await direct(SUCCESS_ACCOUNT, '96.46')).body.status,
      'SUCCESS',
      '96.46 + 3.54 fits exactly',
    );
    assert.deepEqual(await getBalance(), { balance: '0.00', available: '0.00' });
  });

  it('GET /__sandbox/balance/refusals lists the payouts the balance check refused (v1, v2, internal), not a fault refusing a re-send as "Insufficient balance"', async () => {
    await setBalance('100.00');
    const refused = h.id();
    assert.match(
      String((await direct(SUCCESS_ACCOUNT, '150.00', refused)).body.message),
      /insufficient balance/i,
    );
    const v2Refused = h.id();
    assert.equal(
      (await v2Transfer(v2Refused, SUCCESS_ACCOUNT, 120)).body.status_code,
      'INSUFFICIENT_BALANCE',
    );
    const internal = h.id();
    await h.post('/payout/v1/internalTransfer', {
      transferId: internal,
      amount: '500.00',
      rechargeAccount: 'RA0001',
    });
    // A re-send refused by a fault reads the same to the caller, but the balance never refused it.
    const resent = h.id();
    await h.fault({ endpoint: 'directTransfer', refuseResend: 'insufficient_balance', times: 1 });
    assert.equal((await direct(SUCCESS_ACCOUNT, '10.00', resent)).body.status, 'SUCCESS');
    assert.match(
      String((await direct(SUCCESS_ACCOUNT, '10.00', resent)).body.message),
      /insufficient balance/i,
    );
    const list = (await h.ctl('GET', '/__sandbox/balance/refusals')).body.refusals as Obj[];
    assert.deepEqual(
      list.map((r) => [r.endpoint, r.transferId, r.debit, r.available]),
      [
        ['directTransfer', refused, '150.00', '100.00'],
        ['transferV2', v2Refused, '120.00', '100.00'],
        ['internalTransfer', internal, '500.00', '100.00'],
      ],
    );
    assert.equal(typeof list[0]?.at, 'number');
  });

  it('with low-balance queuing a payout that does not fit is QUEUED, in neither balance, and funding releases it with its fee', async () => {
    await setBalance('50.00');
    await setCharge('2.00');
    await h.flags({ queueOnLowBalance: true });
    const transferId = h.id();
    const res = await v2Transfer(transferId, SUCCESS_ACCOUNT, 100);
    assert.equal(res.body.status, 'QUEUED');
    const queue = (await h.ctl('GET', '/__sandbox/queue')).body;
    assert.deepEqual(queue.queued, [{ transferId, amount: '100.00', debit: '102.36' }]);
    assert.deepEqual(await getBalance(), { balance: '50.00', available: '50.00' });
    // 100 + 2 + 0.36 = 102.36: 52.36 more is one paisa short.
    let fund = await h.ctl('POST', '/__sandbox/fund', { amount: '52.35' });
    assert.deepEqual(fund.body.released, []);
    fund = await h.ctl('POST', '/__sandbox/fund', { amount: '0.01' });
    assert.deepEqual(fund.body.released, [transferId]);
    assert.deepEqual(await getBalance(), { balance: '0.00', available: '0.00' });
    assert.equal((await v2Status(transferId)).status, 'SUCCESS');
  });

  it('batch entries, internal transfers and self withdrawals move the balance; only payouts carry the fee', async () => {
    await setBalance('1000.00');
    await setCharge('1.00'); // 1.18 per payout
    const batch = await h.post('/payout/v1/requestBatchTransfer', {
      batchTransferId: h.id('BATCH'),
      batchFormat: 'BANK_ACCOUNT',
      batch: [10, 20].map((amount) => ({
        transferId: h.id(),
        amount: `${amount}.00`,
        ...SUCCESS_ACCOUNT,
        name: 'Batch Payee',
        phone: '9876543210',
      })),
    });
    assert.equal(batch.body.status, 'SUCCESS', JSON.stringify(batch.body));
    await advance(1_000); // the batch is processed
    assert.deepEqual(await getBalance(), { balance: '967.64', available: '967.64' });
    const internal = await h.post('/payout/v1/internalTransfer', { amount: 100, rechargeAccount: 'RA0001' });
    assert.equal(internal.body.status, 'SUCCESS', JSON.stringify(internal.body));
    const self = await h.post('/payout/v1/selfWithdrawal', {
      withdrawalId: h.id('W'),
      amount: 200,
      remarks: 'x',
    });
    assert.equal(self.body.status, 'SUCCESS', JSON.stringify(self.body));
    assert.deepEqual(await getBalance(), { balance: '667.64', available: '667.64' });
  });

  it('every merchant reads its own balance on the v1 path, a merchant on the v2 API too', async () => {
    const merchants = await Harness.start({
      merchants: [{ clientId: 'v2_merchant', clientSecret: 'v2_secret', initialBalance: '250.00' }],
    });
    try {
      const auth = await merchants.call('POST', '/payout/v1/authorize', undefined, {
        token: null,
        headers: { 'x-client-id': 'v2_merchant', 'x-client-secret': 'v2_secret' },
      });
      const token = String((auth.body.data as { token: string }).token);
      const headers = { 'x-client-id': 'v2_merchant', 'x-client-secret': 'v2_secret' };
      const paid = await merchants.v2(
        'POST',
        '/payout/transfers',
        {
          transfer_id: merchants.id(),
          transfer_amount: 50,
          transfer_mode: 'banktransfer',
          beneficiary_details: {
            beneficiary_name: 'Test Payee',
            beneficiary_instrument_details: {
              bank_account_number: SUCCESS_ACCOUNT.bankAccount,
              bank_ifsc: SUCCESS_ACCOUNT.ifsc,
            },
          },
        },
        headers,
      );
      assert.equal(paid.http, 200, JSON.stringify(paid.body));
      const res: Res = await merchants.call('GET', '/payout/v1/getBalance', undefined, { token });
      assert.deepEqual(res.body.data, { balance: '200.00', availableBalance: '200.00' });
      const first = await merchants.get('/payout/v1/getBalance');
      assert.deepEqual(first.body.data, { balance: '10000000.00', availableBalance: '10000000.00' });
    } finally {
      await merchants.close();
    }
  });

  it('LOW_BALANCE_ALERT when a payout and its fee take the balance below the threshold; CREDIT_CONFIRMATION on funding', async () => {
    await h.ctl('POST', '/__sandbox/webhooks', { url: rx.url, version: 'v1', lowBalanceThreshold: '100.00' });
    await setBalance('110.00');
    await setCharge('5.00'); // 5.90 per payout
    await direct(SUCCESS_ACCOUNT, '5.00'); // 99.10: below
    await rx.until((all) => all.some((r) => r.event === 'LOW_BALANCE_ALERT'));
    const low = rx.received.find((r) => r.event === 'LOW_BALANCE_ALERT');
    assert.equal(low?.body.currentBalance, '99.10');
    await h.ctl('POST', '/__sandbox/fund', { amount: '1000.00' });
    await rx.until((all) => all.some((r) => r.event === 'CREDIT_CONFIRMATION'));
    assert.equal(rx.received.find((r) => r.event === 'CREDIT_CONFIRMATION')?.body.amount, '1000.00');
  });

  it('the v2 transfer webhook carries the fee of a paid transfer', async () => {
    await h.ctl('POST', '/__sandbox/webhooks', { url: rx.url, version: 'v2' });
    await setCharge('2.50'); // tax 0.45
    const transferId = h.id();
    await v2Transfer(transferId, SUCCESS_ACCOUNT, 10);
    await rx.until((all) => all.some((r) => r.transferId === transferId && r.event === 'TRANSFER_SUCCESS'));
    const hook = rx.for(transferId).find((r) => r.event === 'TRANSFER_SUCCESS');
    assert.match(hook?.raw ?? '', /"transfer_service_charge":2\.50,"transfer_service_tax":0\.45/);
  });
});
