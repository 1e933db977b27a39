import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cashfree } from 'cashfree-payout';
import { CARD_TOKENS } from '#sandbox';
import { Harness, SUCCESS_ACCOUNT, type Res } from './harness.js';
import { signatureValid, WebhookReceiver, type Received } from './webhook-receiver.js';

const acct = (bankAccount: string, ifsc: string) => ({ bankAccount, ifsc });
const events = (rs: readonly Received[]): string[] => rs.map((r) => r.event);

/** The sandbox sends webhooks as the provider does (provider-facts.md, "Webhooks"). */
describe('sandbox webhooks', () => {
  let h: Harness;
  let rx: WebhookReceiver;
  const secret = 'sandbox_client_secret';

  before(async () => {
    rx = await WebhookReceiver.start();
    h = await Harness.start({ pendingDelayMs: 60_000, webhookRetryBaseMs: 20, webhookTimeoutMs: 2_000 });
  });
  after(async () => {
    await h.close();
    await rx.close();
  });
  beforeEach(async () => {
    await h.fresh();
    rx.clear();
  });

  const hooks = (body: Record<string, unknown>): Promise<Res> => h.ctl('POST', '/__sandbox/webhooks', body);
  const useVersion = (version: 'v1' | 'v2'): Promise<Res> => hooks({ url: rx.url, version });
  const deliveries = async (): Promise<Record<string, unknown>[]> =>
    (await h.ctl('GET', '/__sandbox/webhooks/deliveries')).body.deliveries as Record<string, unknown>[];
  const view = async (): Promise<Record<string, unknown>> => (await h.ctl('GET', '/__sandbox/webhooks')).body;
  const direct = async (bene: { bankAccount: string; ifsc: string }, amount = '10.00'): Promise<string> => {
    const transferId = h.id();
    const res = await h.direct(bene, { transferId, amount });
    assert.ok(res.http < 300, JSON.stringify(res.body));
    return transferId;
  };

  it('v2: success sends TRANSFER_SUCCESS (SENT_TO_BENEFICIARY) then TRANSFER_ACKNOWLEDGED (COMPLETED), the v2 transfer object, signed over timestamp + body', async () => {
    await useVersion('v2');
    const transferId = await direct(SUCCESS_ACCOUNT, '12.30');
    await rx.until((all) => all.length === 2);
    assert.deepEqual(events(rx.received), ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED']);
    const [success, acknowledged] = rx.received;
    assert.ok(success && acknowledged);
    assert.equal(success.headers['content-type'], 'application/json');
    assert.match(String(success.headers['x-webhook-timestamp']), /^\d{13}$/);
    assert.ok(signatureValid(success, secret));
    assert.ok(!signatureValid(success, 'another_secret'), 'the check can fail');
    const body = success.body as { type: string; event_time: string; data: Record<string, unknown> };
    assert.deepEqual(Object.keys(body), ['type', 'event_time', 'data']);
    assert.equal(body.type, 'TRANSFER_SUCCESS');
    // provider-v2.md, "Webhooks V2": YYYY-MM-DDTHH:MM:SS, no zone.
    assert.match(body.event_time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const data = body.data;
    assert.deepEqual(Object.keys(data).sort(), [
      'added_on',
      'beneficiary_details',
      'cf_transfer_id',
      'status',
      'status_code',
      'status_description',
      'transfer_amount',
      'transfer_id',
      'transfer_mode',
      'transfer_service_charge',
      'transfer_service_tax',
      'transfer_utr',
      'updated_on',
    ]);
    assert.equal(data.transfer_id, transferId);
    assert.equal(typeof data.cf_transfer_id, 'string');
    assert.equal(data.status, 'SUCCESS');
    assert.equal(data.status_code, 'SENT_TO_BENEFICIARY');
    // A JSON number on the wire, written from the decimal (no float on the way).
    assert.match(success.raw, /"transfer_amount":12\.30,/);
    assert.match(String(data.transfer_utr), /^SBX\d+$/);
    assert.match(String(data.added_on), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const ack = (acknowledged.body as { data: Record<string, unknown> }).data;
    assert.equal(ack.status, 'SUCCESS');
    assert.equal(ack.status_code, 'COMPLETED');
    // The same transfer as the v2 status endpoint answers it: the provider's id, amount, UTR, mode.
    const status = await h.v2('GET', `/payout/transfers?transfer_id=${transferId}`);
    assert.equal(status.http, 200, JSON.stringify(status.body));
    const shown = status.body;
    assert.equal(ack.cf_transfer_id, shown.cf_transfer_id ?? shown.svc_transfer_id);
    for (const k of [
      'transfer_id',
      'status',
      'status_code',
      'transfer_amount',
      'transfer_utr',
      'transfer_mode',
    ]) {
      assert.deepEqual(ack[k], shown[k], k);
    }
    const d = await deliveries();
    assert.equal(d.length, 2);
    assert.ok(d.every((x) => x.outcome === 'delivered' && x.httpStatus === 200 && x.signatureValid === true));
  });

  it("v2: the provider's official SDK verifies the sandbox's webhooks (PayoutVerifyWebhookSignature)", async () => {
    await useVersion('v2');
    await direct(SUCCESS_ACCOUNT, '7.25');
    const failedId = await direct(acct('7766666351000', 'YESB0000001'));
    await h.advance(60_000);
    await rx.until(() => rx.for(failedId).length === 1 && rx.received.length === 3);
    Cashfree.XEnableErrorAnalytics = false;
    Cashfree.XClientSecret = secret;
    for (const r of rx.received) {
      const signature = String(r.headers['x-webhook-signature']);
      const timestamp = String(r.headers['x-webhook-timestamp']);
      const verified = Cashfree.PayoutVerifyWebhookSignature(signature, r.raw, timestamp);
      assert.equal(verified.type, r.event);
      assert.deepEqual(verified.object, r.body);
      // The SDK's check can fail: another body, or another key.
      assert.throws(() => Cashfree.PayoutVerifyWebhookSignature(signature, `${r.raw} `, timestamp));
    }
    Cashfree.XClientSecret = 'another_secret';
    const [first] = rx.received;
    assert.ok(first);
    assert.throws(() =>
      Cashfree.PayoutVerifyWebhookSignature(
        String(first.headers['x-webhook-signature']),
        first.raw,
        String(first.headers['x-webhook-timestamp']),
      ),
    );
  });

  it('pending then failure: nothing while pending, TRANSFER_FAILED with the reason after the clock moves', async () => {
    await useVersion('v2');
    // What the status endpoint says when each webhook arrives (the provider's order: state first).
    const seen: string[] = [];
    rx.answer = async (r) => {
      const res = await h.get('/payout/v1.2/getTransferStatus', { transferId: r.transferId });
      seen.push(`${r.event}:${String((res.body.data as { transfer: { status: string } }).transfer.status)}`);
      return 200;
    };
    const ok = await direct(SUCCESS_ACCOUNT);
    const transferId = await direct(acct('7766666351000', 'YESB0000001'));
    await rx.until((all) => all.length === 2);
    assert.deepEqual(rx.for(transferId), [], 'no webhook while PENDING');
    assert.equal(rx.for(ok).length, 2);
    await h.advance(60_000);
    await rx.until(() => rx.for(transferId).length === 1);
    const [failed] = rx.for(transferId);
    assert.equal(failed?.event, 'TRANSFER_FAILED');
    const data = (failed?.body as { data: Record<string, unknown> }).data;
    assert.equal(data.status_description, 'BENEFICIARY_BANK_OFFLINE');
    assert.equal(data.status, 'FAILED');
    assert.equal(data.status_code, 'BENE_BANK_DECLINED');
    assert.equal(data.transfer_utr, undefined, 'no UTR for a failed transfer');
    assert.ok(failed && signatureValid(failed, secret));
    await rx.until(() => seen.length === 3);
    assert.deepEqual(seen, [
      'TRANSFER_SUCCESS:SUCCESS',
      'TRANSFER_ACKNOWLEDGED:SUCCESS',
      'TRANSFER_FAILED:FAILED',
    ]);
  });

  it('v1: success then reversal, form-encoded with the eight fields, signed over the sorted values', async () => {
    await useVersion('v1');
    const transferId = await direct(acct('02014457596969', 'CITI0000001'));
    await rx.until((all) => all.length === 2);
    await h.advance(60_000);
    await rx.until((all) => all.length === 3);
    assert.deepEqual(events(rx.received), ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED', 'TRANSFER_REVERSED']);
    for (const r of rx.received) {
      assert.equal(r.headers['content-type'], 'application/x-www-form-urlencoded');
      assert.deepEqual(Object.keys(r.body).sort(), [
        'acknowledged',
        'event',
        'eventTime',
        'reason',
        'referenceId',
        'signature',
        'transferId',
        'utr',
      ]);
      assert.equal(r.transferId, transferId);
      assert.ok(signatureValid(r, secret), r.raw);
      assert.match(String(r.body.eventTime), /Z$/);
    }
    const reversed = rx.received[2]?.body;
    assert.equal(reversed?.reason, 'INVALID_ACCOUNT_FAIL');
    assert.equal(reversed?.acknowledged, '0');
    assert.match(String(reversed?.utr), /^SBX\d+$/);
  });

  it('every transfer kind with a transferId: request, direct, validated UPI, card, internal', async () => {
    await useVersion('v1');
    const beneId = await h.addBene(SUCCESS_ACCOUNT);
    const ids = { request: h.id('R'), card: h.id('C'), upi: h.id('U'), internal: h.id('I') };
    assert.equal(
      (await h.post('/payout/v1.2/requestTransfer', { beneId, amount: 10, transferId: ids.request })).body
        .status,
      'SUCCESS',
    );
    const direct1 = await direct(SUCCESS_ACCOUNT);
    const card = await h.post('/payout/v1/cardpay', {
      token: CARD_TOKENS.success[0],
      amount: '10.00',
      transferId: ids.card,
      cardType: 'DEBIT',
      networkType: 'VISA',
    });
    assert.equal(card.body.status, 'SUCCESS', JSON.stringify(card.body));
    const upi = await h.v2('POST', '/payout/transfers', {
      transfer_id: ids.upi,
      transfer_token: await h.transferToken(ids.upi),
      transfer_amount: '5.00',
      transfer_mode: 'upi',
    });
    assert.equal(upi.body.status, 'SUCCESS');
    const internal = await h.post('/payout/v1/internalTransfer', {
      amount: '3.00',
      rechargeAccount: 'RA0001',
      transferId: ids.internal,
    });
    assert.equal(internal.body.status, 'SUCCESS', JSON.stringify(internal.body));
    const all = [ids.request, direct1, ids.card, ids.upi, ids.internal];
    await rx.until(() => all.every((id) => rx.for(id).length === 2));
    for (const id of all) {
      assert.deepEqual(events(rx.for(id)), ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED'], id);
      assert.ok(rx.for(id).every((r) => signatureValid(r, secret)));
    }
  });

  it('batch entries one by one (a refused entry is TRANSFER_REJECTED); a batch with no valid entry is BULK_TRANSFER_REJECTED', async () => {
    await useVersion('v2');
    const entry = (bankAccount: string, ifsc: string) => ({
      transferId: h.id('E'),
      amount: '2.50',
      bankAccount,
      ifsc,
      name: 'Batch Payee',
      phone: '9876543210',
    });
    const good = entry('026291800001191', 'YESB0000262');
    const bad = entry('026291800001190', 'YESB0000262');
    const batchTransferId = h.id('BATCH');
    await h.post('/payout/v1/requestBatchTransfer', {
      batchTransferId,
      batchFormat: 'BANK_ACCOUNT',
      batch: [good, bad],
    });
    const rejectedId = h.id('BATCH');
    const bad2 = entry('2640101002729', 'CNRR0002640');
    await h.post('/payout/v1/requestBatchTransfer', {
      batchTransferId: rejectedId,
      batchFormat: 'BANK_ACCOUNT',
      batch: [bad2],
    });
    await h.advance(5_000); // processed by the sandbox on its own: no status call needed
    await rx.until((all) => all.length === 5);
    assert.deepEqual(events(rx.for(good.transferId)), ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED']);
    assert.deepEqual(events(rx.for(bad.transferId)), ['TRANSFER_REJECTED']);
    assert.deepEqual(events(rx.for(bad2.transferId)), ['TRANSFER_REJECTED']);
    const rejected = (rx.for(bad.transferId)[0]?.body as { data: Record<string, unknown> }).data;
    assert.equal(rejected.status_description, 'Invalid bank account number or IFSC');
    assert.equal(rejected.status, 'REJECTED');
    assert.equal(rejected.transfer_amount, 2.5);
    const bulk = rx.received.filter((r) => r.event === 'BULK_TRANSFER_REJECTED');
    assert.equal(bulk.length, 1);
    const bulkData = (bulk[0]?.body as { data: Record<string, unknown> }).data;
    assert.deepEqual(bulkData, {
      batch_transfer_id: rejectedId,
      cf_batch_transfer_id: bulkData.cf_batch_transfer_id,
      status: 'REJECTED',
      status_description: 'Invalid IFSC',
    });
    assert.match(String(bulkData.cf_batch_transfer_id), /^\d+$/);
    assert.ok(rx.received.every((r) => signatureValid(r, secret)));
  });

  it('v1 account events: LOW_BALANCE_ALERT below the threshold, CREDIT_CONFIRMATION on a top-up, BENEFICIARY_INCIDENT', async () => {
    await hooks({ url: rx.url, version: 'v1', lowBalanceThreshold: '100.00' });
    await h.ctl('POST', '/__sandbox/balance', { balance: '105.00' }); // a reduction: no credit
    await direct(SUCCESS_ACCOUNT, '3.00'); // 102.00: still above
    await direct(SUCCESS_ACCOUNT, '4.00'); // 98.00: below
    await direct(SUCCESS_ACCOUNT, '1.00'); // stays below: no second alert
    await rx.until((all) => all.length === 7);
    const low = rx.received.filter((r) => r.event === 'LOW_BALANCE_ALERT');
    assert.equal(low.length, 1);
    assert.equal(low[0]?.body.currentBalance, '98.00');
    assert.ok(low[0] && signatureValid(low[0], secret));
    await h.ctl('POST', '/__sandbox/balance', { balance: '500.00' });
    await h.ctl('POST', '/__sandbox/webhooks/incident', { beneficiaryId: 'B1', reason: 'BANK_DOWNTIME' });
    await rx.until((all) => all.length === 9);
    const [credit, incident] = rx.received.slice(7);
    assert.equal(credit?.event, 'CREDIT_CONFIRMATION');
    assert.equal(credit?.body.amount, '403.00');
    assert.equal(incident?.event, 'BENEFICIARY_INCIDENT');
    assert.equal(incident?.body.beneId, 'B1');
    assert.equal(incident?.body.reason, 'BANK_DOWNTIME');
    assert.ok(credit && incident && signatureValid(credit, secret) && signatureValid(incident, secret));
  });

  it('v2 has no account events', async () => {
    await hooks({ url: rx.url, version: 'v2', lowBalanceThreshold: '100.00' });
    await h.ctl('POST', '/__sandbox/balance', { balance: '101.00' });
    await h.ctl('POST', '/__sandbox/webhooks/incident', { reason: 'BANK_DOWNTIME' });
    await direct(SUCCESS_ACCOUNT, '2.00');
    await rx.until((all) => all.length === 2);
    assert.deepEqual(events(rx.received), ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED']);
    assert.equal(((await view()).counts as { emitted: number }).emitted, 2);
  });

  it('faults: duplicates send the same payload twice', async () => {
    await hooks({ url: rx.url, version: 'v1', faults: { duplicateRate: 1 } });
    const transferId = await direct(SUCCESS_ACCOUNT);
    await rx.until((all) => all.length === 4);
    const success = rx.for(transferId).filter((r) => r.event === 'TRANSFER_SUCCESS');
    assert.equal(success.length, 2);
    assert.equal(success[0]?.raw, success[1]?.raw);
    assert.equal((await deliveries()).filter((d) => d.duplicate === true).length, 2);
  });

  it('faults: drops are never sent, bad signatures fail verification and are flagged', async () => {
    await hooks({ url: rx.url, version: 'v2', faults: { dropRate: 1 } });
    const lost = await direct(SUCCESS_ACCOUNT);
    await hooks({ faults: { dropRate: 0, badSignatureRate: 1 } });
    const forged = await direct(SUCCESS_ACCOUNT);
    await rx.until((all) => all.length === 2);
    assert.deepEqual(rx.for(lost), [], 'the lost webhook');
    assert.equal(rx.for(forged).length, 2);
    assert.ok(rx.for(forged).every((r) => !signatureValid(r, secret)));
    const d = await deliveries();
    assert.deepEqual(
      d.filter((x) => x.transferId === lost).map((x) => [x.outcome, x.attempt]),
      [
        ['dropped', 0],
        ['dropped', 0],
      ],
    );
    assert.ok(d.filter((x) => x.transferId === forged).every((x) => x.signatureValid === false));
    const counts = (await view()).counts as Record<string, number>;
    assert.equal(counts.dropped, 2);
    assert.equal(counts.badSignature, 2);
  });

  it('faults: a reorder window holds deliveries and sends them shuffled; a delay holds them on the sandbox clock', async () => {
    await hooks({ url: rx.url, version: 'v1', faults: { reorderWindowMs: 60_000, seed: 7 } });
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push(await direct(SUCCESS_ACCOUNT));
    assert.equal(rx.received.length, 0, 'held for the window');
    assert.equal((await view()).held, 8);
    await h.advance(60_000);
    await rx.until((all) => all.length === 8);
    const order = rx.received.filter((r) => r.event === 'TRANSFER_SUCCESS').map((r) => r.transferId);
    assert.deepEqual([...order].sort(), [...ids].sort());
    assert.notDeepEqual(
      rx.received.map((r) => `${r.transferId}/${r.event}`),
      ids.flatMap((id) => [`${id}/TRANSFER_SUCCESS`, `${id}/TRANSFER_ACKNOWLEDGED`]),
    );
    rx.clear();
    await hooks({ faults: { reorderWindowMs: 0, delayMs: 30_000 } });
    const late = await direct(SUCCESS_ACCOUNT);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(rx.received.length, 0, 'delayed');
    await h.advance(30_000);
    await rx.until(() => rx.for(late).length === 2);
  });

  it('retries after a 500 until a 2xx', async () => {
    await useVersion('v2');
    let calls = 0;
    rx.answer = () => (++calls === 1 ? 500 : 200);
    const transferId = await direct(SUCCESS_ACCOUNT);
    await rx.until(() => rx.for(transferId).filter((r) => r.event === 'TRANSFER_SUCCESS').length === 2);
    await rx.until((all) => all.length === 3);
    const d = (await deliveries()).filter((x) => x.event === 'TRANSFER_SUCCESS');
    assert.deepEqual(
      d.map((x) => [x.attempt, x.outcome, x.httpStatus]),
      [
        [1, 'failed', 500],
        [2, 'delivered', 200],
      ],
    );
    assert.equal((await view()).consecutiveFailures, 0);
  });

  it('an endpoint failing more than 5 times in a row is disabled until re-enabled; held webhooks are not sent later', async () => {
    await useVersion('v2');
    rx.answer = () => 503;
    const first = await direct(SUCCESS_ACCOUNT);
    await rx.until(() => rx.received.length >= 6);
    await new Promise((resolve) => setTimeout(resolve, 200)); // room for a 7th attempt, which must not come
    assert.equal(rx.received.length, 6);
    let v = await view();
    assert.equal(v.disabled, true);
    assert.equal(v.consecutiveFailures, 6);
    const whileDisabled = await direct(SUCCESS_ACCOUNT);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(rx.for(whileDisabled), []);
    assert.ok((await deliveries()).some((d) => d.transferId === whileDisabled && d.outcome === 'skipped'));
    rx.answer = () => 200;
    v = (await h.ctl('POST', '/__sandbox/webhooks/enable')).body;
    assert.equal(v.disabled, false);
    assert.equal(v.consecutiveFailures, 0);
    const afterEnable = await direct(SUCCESS_ACCOUNT);
    await rx.until(() => rx.for(afterEnable).length === 2);
    assert.deepEqual(rx.for(whileDisabled), [], 'dropped, as the provider does');
    assert.ok(rx.for(first).every((r) => r.event !== '' && signatureValid(r, secret)));
  });
});

describe('sandbox webhooks: delivery timeout', () => {
  it('a receiver that does not answer within the timeout is a failed attempt', async () => {
    const rx = await WebhookReceiver.start();
    const h = await Harness.start({
      webhook: { url: rx.url, version: 'v1' },
      webhookTimeoutMs: 100,
      webhookMaxAttempts: 1,
    });
    try {
      rx.answer = () => 'hang';
      await h.direct(SUCCESS_ACCOUNT);
      await rx.until((all) => all.length === 2);
      const world = h.sb.world;
      const end = Date.now() + 5_000;
      while (world.webhooks.counts.failedAttempts < 2 && Date.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.deepEqual(
        world.webhooks.deliveries().map((d) => [d.event, d.outcome, d.error]),
        [
          ['TRANSFER_SUCCESS', 'failed', 'timeout'],
          ['TRANSFER_ACKNOWLEDGED', 'failed', 'timeout'],
        ],
      );
      assert.equal(world.webhooks.counts.exhausted, 2);
    } finally {
      await h.close();
      await rx.close();
    }
  });
});
