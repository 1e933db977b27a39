import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, SUCCESS_ACCOUNT, type Res } from './harness.js';
import { WebhookReceiver } from './webhook-receiver.js';

type Obj = Record<string, unknown>;
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const IST = 330 * 60_000;

/** The magic accounts of docs/SANDBOX.md, "Long waits". */
const ACCOUNTS = {
  errorThenSuccess: { bankAccount: '026291800001193', ifsc: 'YESB0000262' },
  approval: { bankAccount: '026291800001194', ifsc: 'YESB0000262' },
  velocity: { bankAccount: '026291800001195', ifsc: 'YESB0000262' },
  limit: { bankAccount: '026291800001196', ifsc: 'YESB0000262' },
  anomaly: { bankAccount: '026291800001197', ifsc: 'YESB0000262' },
  nextWorkingDay: { bankAccount: '026291800001198', ifsc: 'YESB0000262' },
  lateReversal: { bankAccount: '026291800001199', ifsc: 'YESB0000262' },
  queued: { bankAccount: '026291800001189', ifsc: 'YESB0000262' },
};

/**
 * The provider's long waits over real HTTP (issue 29, "The sandbox must show these"): status
 * ERROR then paid, QUEUED for days then paid once funded, APPROVAL_PENDING then approved or
 * rejected, the next working day across a weekend, and a reversal days later.
 */
describe('sandbox: the provider long waits', () => {
  let h: Harness;
  let rx: WebhookReceiver;
  before(async () => {
    rx = await WebhookReceiver.start();
    h = await Harness.start({ pendingDelayMs: 60_000, webhookRetryBaseMs: 20 });
  });
  after(async () => {
    await h.close();
    await rx.close();
  });
  beforeEach(async () => {
    await h.fresh();
    rx.clear();
    await h.ctl('POST', '/__sandbox/webhooks', { url: rx.url, version: 'v2' });
  });

  /** Moves the sandbox clock (re-authorizing: days outlive the bearer token). */
  const advance = async (ms: number): Promise<void> => {
    await h.advance(ms);
    await h.authorize();
  };
  const now = async (): Promise<number> => Number((await h.ctl('GET', '/__sandbox/clock')).body.now);
  const v1 = async (transferId: string): Promise<Obj> => {
    const res = await h.get('/payout/v1.2/getTransferStatus', { transferId });
    assert.equal(res.body.status, 'SUCCESS', JSON.stringify(res.body));
    return (res.body.data as { transfer: Obj }).transfer;
  };
  const v2 = async (transferId: string): Promise<Obj> => {
    const res = await h.v2('GET', `/payout/transfers?transfer_id=${transferId}`);
    assert.equal(res.http, 200, JSON.stringify(res.body));
    return res.body;
  };
  const v2Transfer = (
    transferId: string,
    account: { bankAccount: string; ifsc: string },
    amount = 10,
  ): Promise<Res> =>
    h.v2('POST', '/payout/transfers', {
      transfer_id: transferId,
      transfer_amount: amount,
      transfer_mode: 'banktransfer',
      beneficiary_details: {
        beneficiary_name: 'Test Payee',
        beneficiary_instrument_details: { bank_account_number: account.bankAccount, bank_ifsc: account.ifsc },
      },
    });
  const balance = async (): Promise<string> =>
    String((await h.ctl('GET', '/__sandbox/balance')).body.balance);
  const events = async (transferId: string, count: number): Promise<string[]> => {
    await rx.until((all) => all.filter((r) => r.transferId === transferId).length >= count);
    return rx.for(transferId).map((r) => r.event);
  };

  describe('status ERROR, then paid', () => {
    it('directTransfer answers 520 "Transfer triggered, no response from bank"; the status says ERROR, then SUCCESS', async () => {
      const transferId = h.id();
      const res = await h.direct(ACCOUNTS.errorThenSuccess, { transferId });
      assert.equal(res.http, 520);
      assert.equal(res.body.status, 'ERROR');
      assert.equal(res.body.message, 'Transfer triggered, no response from bank');
      let t = await v1(transferId);
      assert.equal(t.status, 'ERROR');
      assert.equal(t.reason, 'Transfer triggered, no response from bank');
      assert.equal(t.utr, '');
      assert.equal((await v2(transferId)).status, 'PENDING');
      await advance(60_000);
      t = await v1(transferId);
      assert.equal(t.status, 'SUCCESS');
      assert.match(String(t.utr), /^SBX\d+$/);
      const outcome = (await h.ctl('GET', `/__sandbox/outcomes?transferId=${transferId}`)).body
        .outcomes as Obj[];
      assert.equal(outcome[0]?.paid, 1, 'the provider paid it');
    });

    it('requestTransfer answers 201 ERROR; the status says ERROR, then SUCCESS', async () => {
      const beneId = await h.addBene(ACCOUNTS.errorThenSuccess);
      const transferId = h.id();
      const res = await h.post('/payout/v1.2/requestTransfer', { beneId, amount: '10.00', transferId });
      assert.equal(res.body.status, 'ERROR', JSON.stringify(res.body));
      assert.equal(res.body.subCode, '201');
      assert.equal((await v1(transferId)).status, 'ERROR');
      await advance(60_000);
      assert.equal((await v1(transferId)).status, 'SUCCESS');
    });
  });

  describe('QUEUED for days, paid once funded', () => {
    it('a merchant that queues holds a transfer it cannot fund QUEUED; a top-up sends it', async () => {
      await h.flags({ queueOnLowBalance: true });
      await h.ctl('POST', '/__sandbox/balance', { balance: '5.00' });
      const transferId = h.id();
      const res = await v2Transfer(transferId, SUCCESS_ACCOUNT, 10);
      assert.equal(res.http, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, 'QUEUED');
      assert.equal(res.body.status_code, 'QUEUED');
      assert.equal(await balance(), '5.00', 'nothing debited while queued');
      // v1 has no QUEUED: PENDING, with the reason QUEUED.
      const t = await v1(transferId);
      assert.equal(t.status, 'PENDING');
      assert.equal(t.reason, 'QUEUED');
      // A later transfer the balance could fund waits behind it (first come, first funded).
      const second = h.id();
      assert.equal((await v2Transfer(second, SUCCESS_ACCOUNT, 1)).body.status, 'QUEUED');
      await advance(3 * DAY);
      assert.equal((await v2(transferId)).status, 'QUEUED', 'still queued after 3 days');
      const fund = await h.ctl('POST', '/__sandbox/fund', { amount: '10.00' });
      assert.deepEqual(fund.body.released, [transferId, second]);
      assert.equal(fund.body.balance, '4.00');
      assert.equal((await v2(transferId)).status, 'SUCCESS');
      assert.equal((await v1(second)).status, 'SUCCESS');
      assert.deepEqual(await events(transferId, 1), ['TRANSFER_SUCCESS']);
    });

    it('never funded: FAILED / INSUFFICIENT_BALANCE after the queue time (4 days by default)', async () => {
      await h.flags({ queueOnLowBalance: true });
      await h.ctl('POST', '/__sandbox/balance', { balance: '1.00' });
      const transferId = h.id();
      const res = await h.direct(SUCCESS_ACCOUNT, { transferId, amount: '10.00' });
      assert.equal(res.body.status, 'PENDING', JSON.stringify(res.body));
      assert.equal(res.body.subCode, '202');
      await advance(4 * DAY - 60_000);
      assert.equal((await v2(transferId)).status, 'QUEUED');
      await advance(60_000);
      const t = await v2(transferId);
      assert.equal(t.status, 'FAILED');
      assert.equal(t.status_code, 'INSUFFICIENT_BALANCE');
      assert.deepEqual(await events(transferId, 1), ['TRANSFER_FAILED']);
      // Funding now does not send it.
      const fund = await h.ctl('POST', '/__sandbox/fund', { amount: '100.00' });
      assert.deepEqual(fund.body.released, []);
      assert.equal((await v1(transferId)).status, 'FAILED');
    });

    it('the queue time is the merchant setting (1 hour to 10 days)', async () => {
      await h.flags({ queueOnLowBalance: true, queueMaxMs: HOUR });
      await h.ctl('POST', '/__sandbox/balance', { balance: '1.00' });
      const transferId = h.id();
      await v2Transfer(transferId, SUCCESS_ACCOUNT, 10);
      await advance(HOUR);
      assert.equal((await v2(transferId)).status, 'FAILED');
      const bad = await h.call('POST', '/__sandbox/flags', { queueMaxMs: 11 * DAY }, { token: null });
      assert.equal(bad.http, 400);
    });

    it('the queued-until-funded account is QUEUED on any merchant; the next top-up sends it', async () => {
      const transferId = h.id();
      const res = await v2Transfer(transferId, ACCOUNTS.queued);
      assert.equal(res.body.status, 'QUEUED', JSON.stringify(res.body));
      const before = await balance();
      const queue = await h.ctl('GET', '/__sandbox/queue');
      assert.deepEqual(queue.body.queued, [{ transferId, amount: '10.00', debit: '10.00' }]);
      const fund = await h.ctl('POST', '/__sandbox/fund', { amount: '0.01' });
      assert.deepEqual(fund.body.released, [transferId]);
      assert.equal(fund.body.balance, (Number(before) + 0.01 - 10).toFixed(2));
      assert.equal((await v2(transferId)).status, 'SUCCESS');
    });

    it('without the setting a transfer the balance cannot fund is refused as before', async () => {
      await h.ctl('POST', '/__sandbox/balance', { balance: '1.00' });
      const res = await h.direct(SUCCESS_ACCOUNT, { amount: '10.00' });
      assert.equal(res.body.message, 'Insufficient balance in account', JSON.stringify(res.body));
    });
  });

  describe('APPROVAL_PENDING, then approved or rejected', () => {
    it('approved: TRANSFER_APPROVED, then paid', async () => {
      const transferId = h.id();
      const res = await v2Transfer(transferId, ACCOUNTS.approval);
      assert.equal(res.body.status, 'APPROVAL_PENDING', JSON.stringify(res.body));
      assert.equal(res.body.status_code, 'APPROVAL_PENDING');
      const t = await v1(transferId);
      assert.equal(t.status, 'PENDING');
      assert.equal(t.reason, 'APPROVAL_PENDING');
      await advance(2 * DAY);
      assert.equal((await v2(transferId)).status, 'APPROVAL_PENDING', 'waits for a person');
      const ok = await h.ctl('POST', '/__sandbox/transfers/approve', { transferId });
      assert.equal(ok.body.statusCode, 'APPROVED');
      const approved = await v2(transferId);
      assert.equal(approved.status, 'PENDING');
      assert.equal(approved.status_code, 'APPROVED');
      await advance(60_000);
      assert.equal((await v2(transferId)).status, 'SUCCESS');
      assert.deepEqual(await events(transferId, 2), ['TRANSFER_APPROVED', 'TRANSFER_SUCCESS']);
      const again = await h.call('POST', '/__sandbox/transfers/approve', { transferId }, { token: null });
      assert.equal(again.http, 409);
    });

    it('rejected: REJECTED / MANUALLY_REJECTED, TRANSFER_REJECTED, the money returned', async () => {
      await h.ctl('POST', '/__sandbox/balance', { balance: '100.00' });
      const transferId = h.id();
      await v2Transfer(transferId, ACCOUNTS.velocity);
      const t = await v2(transferId);
      assert.equal(t.status, 'APPROVAL_PENDING');
      assert.equal(t.status_code, 'VELOCITY_CHECK_FAILED');
      await h.ctl('POST', '/__sandbox/transfers/reject', { transferId });
      const r = await v2(transferId);
      assert.equal(r.status, 'REJECTED');
      assert.equal(r.status_code, 'MANUALLY_REJECTED');
      assert.equal((await v1(transferId)).status, 'REJECTED');
      assert.equal(await balance(), '100.00');
      assert.deepEqual(await events(transferId, 1), ['TRANSFER_REJECTED']);
    });

    it('the other codes under APPROVAL_PENDING, and a rejection with status_code REJECTED', async () => {
      for (const [account, code] of [
        [ACCOUNTS.limit, 'TRANSFER_LIMIT_BREACH'],
        [ACCOUNTS.anomaly, 'ANOMALY_DETECTION'],
      ] as const) {
        const transferId = h.id();
        await v2Transfer(transferId, account);
        const t = await v2(transferId);
        assert.deepEqual([t.status, t.status_code], ['APPROVAL_PENDING', code]);
        await h.ctl('POST', '/__sandbox/transfers/reject', { transferId, statusCode: 'REJECTED' });
        const r = await v2(transferId);
        assert.deepEqual([r.status, r.status_code], ['REJECTED', 'REJECTED']);
      }
    });

    it('a merchant that requires approval holds every transfer; approved, it goes as it would have', async () => {
      await h.flags({ approvalRequired: 'APPROVAL_PENDING' });
      const transferId = h.id();
      const res = await h.direct(SUCCESS_ACCOUNT, { transferId });
      assert.equal(res.body.status, 'PENDING', JSON.stringify(res.body));
      assert.equal((await v2(transferId)).status, 'APPROVAL_PENDING');
      await h.ctl('POST', '/__sandbox/transfers/approve', { transferId });
      await advance(60_000);
      assert.equal((await v1(transferId)).status, 'SUCCESS');
    });

    it('v1 webhooks carry no TRANSFER_APPROVED (v2 only)', async () => {
      await h.ctl('POST', '/__sandbox/webhooks', { url: rx.url, version: 'v1' });
      const transferId = h.id();
      await v2Transfer(transferId, ACCOUNTS.approval);
      await h.ctl('POST', '/__sandbox/transfers/approve', { transferId });
      await advance(65_000);
      assert.deepEqual(await events(transferId, 2), ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED']);
    });
  });

  describe('next working day across a weekend', () => {
    /** Moves the sandbox clock to the next Saturday at `hour` India time. */
    const toSaturday = async (hour: number): Promise<number> => {
      const t = await now();
      let target = Math.floor((t + IST) / DAY) * DAY - IST + hour * HOUR;
      while (target <= t || new Date(target + IST).getUTCDay() !== 6) target += DAY;
      await advance(target - t);
      return target;
    };

    it('v1: SUCCESS 201 "scheduled for next working day", PENDING until Monday 09:00 India time', async () => {
      const saturday = await toSaturday(10);
      const transferId = h.id();
      const res = await h.direct(ACCOUNTS.nextWorkingDay, { transferId });
      assert.equal(res.body.status, 'SUCCESS');
      assert.equal(res.body.subCode, '201');
      assert.equal(res.body.message, 'Transfer scheduled for next working day');
      assert.equal((await v1(transferId)).status, 'PENDING');
      const t = await v2(transferId);
      assert.deepEqual([t.status, t.status_code], ['PENDING', 'SCHEDULED_FOR_NEXT_WORKINGDAY']);
      const monday9 = saturday - 10 * HOUR + 2 * DAY + 9 * HOUR;
      await advance(monday9 - 60_000 - (await now()));
      assert.equal((await v1(transferId)).status, 'PENDING', 'Sunday and Monday before 09:00: still pending');
      await advance(60_000);
      assert.equal((await v1(transferId)).status, 'SUCCESS');
    });

    it('a bank holiday on Monday moves it to Tuesday (v2)', async () => {
      const saturday = await toSaturday(12);
      const monday = new Date(saturday + 2 * DAY + IST).toISOString().slice(0, 10);
      await h.ctl('POST', '/__sandbox/calendar', { holidays: [monday] });
      const transferId = h.id();
      const res = await v2Transfer(transferId, ACCOUNTS.nextWorkingDay);
      assert.equal(res.body.status_code, 'SCHEDULED_FOR_NEXT_WORKINGDAY');
      await advance(saturday - 12 * HOUR + 2 * DAY + 10 * HOUR - (await now()));
      assert.equal((await v2(transferId)).status, 'PENDING', 'Monday is a holiday');
      await advance(DAY);
      assert.equal((await v2(transferId)).status, 'SUCCESS');
      await h.ctl('POST', '/__sandbox/calendar', { holidays: [] });
    });
  });

  describe('a reversal days later', () => {
    it('SUCCESS, then REVERSED after 3 days (sandbox clock), with TRANSFER_REVERSED and the money back', async () => {
      await h.ctl('POST', '/__sandbox/balance', { balance: '100.00' });
      const transferId = h.id();
      const res = await h.direct(ACCOUNTS.lateReversal, { transferId });
      assert.equal(res.body.status, 'SUCCESS');
      assert.equal(await balance(), '90.00');
      await advance(3 * DAY - 60_000);
      assert.equal((await v1(transferId)).status, 'SUCCESS');
      await advance(60_000);
      const t = await v1(transferId);
      assert.equal(t.status, 'REVERSED');
      assert.equal(t.reason, 'ACCOUNT_FROZEN_OR_CLOSED');
      assert.equal(await balance(), '100.00');
      const seen = await events(transferId, 3);
      assert.equal(seen.at(-1), 'TRANSFER_REVERSED');
    });

    it('the delay is a timing setting', async () => {
      await h.ctl('POST', '/__sandbox/timing', { lateReversalMs: 10 * DAY });
      const transferId = h.id();
      await v2Transfer(transferId, ACCOUNTS.lateReversal);
      await advance(9 * DAY);
      assert.equal((await v2(transferId)).status, 'SUCCESS');
      await advance(DAY);
      assert.equal((await v2(transferId)).status, 'REVERSED');
    });
  });
});

describe('sandbox: a merchant clock of its own', () => {
  let h: Harness;
  const B = { 'x-client-id': 'clock_b', 'x-client-secret': 'clock_b_secret' };
  before(async () => {
    h = await Harness.start({ merchants: [{ clientId: 'clock_b', clientSecret: 'clock_b_secret' }] });
  });
  after(() => h.close());

  const transfer = (transferId: string, headers: Record<string, string> = {}) =>
    h.v2(
      'POST',
      '/payout/transfers',
      {
        transfer_id: transferId,
        transfer_amount: 10,
        beneficiary_details: {
          beneficiary_name: 'Test Payee',
          beneficiary_instrument_details: {
            bank_account_number: '026291800001199',
            bank_ifsc: 'YESB0000262',
          },
        },
      },
      headers,
    );
  const status = async (transferId: string, headers: Record<string, string> = {}): Promise<unknown> =>
    (await h.v2('GET', `/payout/transfers?transfer_id=${transferId}`, undefined, headers)).body.status;

  it('advancing one merchant clock moves its days only; the global clock moves every merchant', async () => {
    const a = h.id();
    const b = h.id();
    assert.equal((await transfer(a)).http, 200);
    assert.equal((await transfer(b, B)).http, 200);
    const before = Number((await h.ctl('GET', '/__sandbox/clock')).body.now);
    const moved = await h.ctl('POST', '/__sandbox/clock/advance?clientId=clock_b', { days: 3 });
    assert.equal(moved.body.offsetMs, 3 * DAY);
    assert.equal(await status(b, B), 'REVERSED', "B's three days have passed");
    assert.equal(await status(a), 'SUCCESS', "A's clock did not move");
    const global = Number((await h.ctl('GET', '/__sandbox/clock')).body.now);
    assert.ok(global - before < DAY, 'the global clock did not move');
    const bNow = Number((await h.ctl('GET', '/__sandbox/clock?clientId=clock_b')).body.now);
    assert.ok(bNow - global >= 3 * DAY);
    await h.ctl('POST', '/__sandbox/clock/advance', { days: 3 });
    assert.equal(await status(a), 'REVERSED', 'the global clock moves A');
    const unknown = await h.call(
      'POST',
      '/__sandbox/clock/advance?clientId=nobody',
      { ms: 1 },
      { token: null },
    );
    assert.equal(unknown.http, 404);
  });
});
