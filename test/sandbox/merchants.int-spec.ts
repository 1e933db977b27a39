import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { COMMON, signClientId, V2_COMMON } from '#sandbox';
import { assertRow, assertV2Row, Harness, SUCCESS_ACCOUNT, V2_HEADERS, type Res } from './harness.js';
import { signatureValid, WebhookReceiver } from './webhook-receiver.js';

const B = { clientId: 'merchant_b', clientSecret: 'merchant_b_secret' };
const B_V2 = { 'x-client-id': B.clientId, 'x-client-secret': B.clientSecret };

/**
 * Several merchants in one sandbox (SANDBOX_MERCHANTS): each is served for the credentials it
 * presents and has its own transfers, balance, tokens, faults and webhooks.
 */
describe('sandbox merchants', () => {
  let h: Harness;
  let rxA: WebhookReceiver;
  let rxB: WebhookReceiver;
  let tokenB = '';

  before(async () => {
    rxA = await WebhookReceiver.start();
    rxB = await WebhookReceiver.start();
    h = await Harness.start({
      pendingDelayMs: 60_000,
      webhookRetryBaseMs: 20,
      merchants: [{ ...B, initialBalance: '500.00' }],
    });
  });
  after(async () => {
    await h.close();
    await rxA.close();
    await rxB.close();
  });
  beforeEach(async () => {
    await h.fresh();
    rxA.clear();
    rxB.clear();
    tokenB = await authorizeB();
  });

  const authorizeB = async (): Promise<string> => {
    const res = await h.post('/payout/v1/authorize', undefined, {
      token: null,
      headers: { 'x-client-id': B.clientId, 'x-client-secret': B.clientSecret },
    });
    assert.equal(res.body.status, 'SUCCESS', JSON.stringify(res.body));
    return String((res.body.data as { token: string }).token);
  };
  const ctlB = (method: string, path: string, body?: unknown): Promise<Res> =>
    h.ctl(method, `${path}${path.includes('?') ? '&' : '?'}clientId=${B.clientId}`, body);
  const statusOf = (transferId: string, token: string): Promise<Res> =>
    h.get('/payout/v1/getTransferStatus', { transferId }, { token });

  it('the same transferId from two merchants is two transfers, each with its own amount and balance', async () => {
    const transferId = h.id();
    const a = await h.direct(SUCCESS_ACCOUNT, { transferId, amount: '10.00' });
    assert.equal(a.body.status, 'SUCCESS', JSON.stringify(a.body));
    const b = await h.direct(SUCCESS_ACCOUNT, { transferId, amount: '20.00' }, { token: tokenB });
    assert.equal(b.body.status, 'SUCCESS', `B's transfer is not a repeat of A's: ${JSON.stringify(b.body)}`);
    // A repeat within one merchant is still a repeat.
    const again = await h.direct(SUCCESS_ACCOUNT, { transferId, amount: '20.00' }, { token: tokenB });
    assert.notEqual(again.body.status, 'SUCCESS', JSON.stringify(again.body));

    const transferOf = (r: Res) =>
      (r.body.data as { transfer: { amount: unknown; referenceId: unknown } }).transfer;
    const ofA = transferOf(await statusOf(transferId, h.token));
    const ofB = transferOf(await statusOf(transferId, tokenB));
    assert.match(String(ofA.amount), /^10(\.0+)?$/);
    assert.match(String(ofB.amount), /^20(\.0+)?$/);
    assert.notEqual(
      ofA.referenceId,
      ofB.referenceId,
      "the provider's reference ids are unique across merchants",
    );
    const v2 = await h.v2('GET', `/payout/transfers?transfer_id=${transferId}`, undefined, B_V2);
    assert.equal(v2.http, 200, JSON.stringify(v2.body));
    assert.equal(v2.body.transfer_amount, 20);

    assert.equal((await ctlB('GET', '/__sandbox/balance')).body.balance, '480.00');
    assert.equal((await h.ctl('GET', '/__sandbox/balance')).body.balance, '9999990.00');

    const outcomes = (await h.ctl('GET', `/__sandbox/outcomes?transferId=${transferId}`)).body.outcomes as {
      account: string;
      paid: number;
    }[];
    assert.deepEqual(outcomes.map((o) => [o.account, o.paid]).sort(), [
      [B.clientId, 1],
      ['sandbox_client_id', 1],
    ]);
    const summary = (await h.ctl('GET', '/__sandbox/received/summary')).body;
    assert.equal(summary.distinctAccepted, 2);
    assert.deepEqual(summary.acceptedMoreThanOnce, []);
    const onlyB = (await ctlB('GET', `/__sandbox/outcomes?transferId=${transferId}`)).body.outcomes as {
      account: string;
    }[];
    assert.deepEqual(
      onlyB.map((o) => o.account),
      [B.clientId],
    );
  });

  it("a token from merchant A is not merchant B's: it sees and pays only for A", async () => {
    const transferId = h.id();
    assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId }, { token: tokenB })).body.status, 'SUCCESS');
    assert.equal((await statusOf(transferId, h.token)).body.subCode, '404', "A does not see B's transfer");
    assert.equal((await statusOf(transferId, tokenB)).body.subCode, '200');
    // A token minted for B, presented with A's client id, is still B's.
    const mixed = await h.get(
      '/payout/v1/getTransferStatus',
      { transferId },
      { token: tokenB, headers: { 'x-client-id': 'sandbox_client_id' } },
    );
    assert.equal(mixed.body.subCode, '200');
    // v2: A's id with B's secret is refused, as unknown credentials are today.
    assertV2Row(
      await h.v2('GET', `/payout/transfers?transfer_id=${transferId}`, undefined, {
        'x-client-secret': B.clientSecret,
      }),
      V2_COMMON.authFailed,
    );
    assertV2Row(
      await h.v2('GET', `/payout/transfers?transfer_id=${transferId}`, undefined, {
        'x-client-id': 'nobody',
        'x-client-secret': 'nothing',
      }),
      V2_COMMON.authFailed,
    );
    assertRow(
      await h.post('/payout/v1/authorize', undefined, {
        token: null,
        headers: { 'x-client-id': B.clientId, 'x-client-secret': 'sandbox_client_secret' },
      }),
      COMMON.badCredentials,
    );
    // A's reset of B leaves A's token alone; B's old token is gone.
    await ctlB('POST', '/__sandbox/reset');
    assertRow(await statusOf(transferId, tokenB), COMMON.tokenInvalid);
    assert.equal((await statusOf(transferId, h.token)).body.subCode, '404');
  });

  it("each merchant's webhooks go to its own URL, in its own version, signed with its own secret", async () => {
    await h.ctl('POST', '/__sandbox/webhooks', { url: rxA.url, version: 'v1' });
    await ctlB('POST', '/__sandbox/webhooks', { url: rxB.url, version: 'v2' });
    const idA = h.id();
    const idB = h.id();
    assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId: idA })).body.status, 'SUCCESS');
    const b = await h.v2(
      'POST',
      '/payout/transfers',
      {
        transfer_id: idB,
        transfer_amount: 12.5,
        transfer_mode: 'banktransfer',
        beneficiary_details: {
          beneficiary_name: 'Test Payee',
          beneficiary_instrument_details: {
            bank_account_number: SUCCESS_ACCOUNT.bankAccount,
            bank_ifsc: SUCCESS_ACCOUNT.ifsc,
          },
        },
      },
      B_V2,
    );
    assert.equal(b.http, 200, JSON.stringify(b.body));
    await rxA.until((all) => all.some((r) => r.transferId === idA));
    await rxB.until((all) => all.some((r) => r.transferId === idB));
    assert.deepEqual(
      rxA.received.map((r) => r.transferId),
      rxA.for(idA).map(() => idA),
      "A's receiver gets only A's webhooks",
    );
    assert.ok(
      rxB.received.every((r) => r.transferId === idB),
      "B's receiver gets only B's webhooks",
    );
    const [a1] = rxA.for(idA);
    const [b1] = rxB.for(idB);
    assert.ok(a1 && b1);
    assert.equal(a1.headers['x-webhook-timestamp'], undefined, 'A: v1 (form fields)');
    assert.equal(a1.event, 'TRANSFER_SUCCESS');
    assert.match(String(b1.headers['x-webhook-timestamp']), /^\d{13}$/, 'B: v2');
    assert.ok(signatureValid(a1, 'sandbox_client_secret'));
    assert.ok(!signatureValid(a1, B.clientSecret));
    assert.ok(signatureValid(b1, B.clientSecret));
    assert.ok(!signatureValid(b1, 'sandbox_client_secret'));
    const deliveriesB = (await ctlB('GET', '/__sandbox/webhooks/deliveries')).body.deliveries as {
      transferId: string;
    }[];
    assert.ok(deliveriesB.length > 0 && deliveriesB.every((d) => d.transferId === idB));
  });

  it('control routes take the merchant (?clientId=), default to the first, and refuse an unknown one', async () => {
    await ctlB('POST', '/__sandbox/balance', { balance: '5.00' });
    assert.equal((await h.ctl('GET', '/__sandbox/balance')).body.balance, '10000000.00');
    await ctlB('POST', '/__sandbox/faults', { endpoint: 'directTransfer', httpStatus: 503, times: 1 });
    assert.deepEqual((await h.ctl('GET', '/__sandbox/faults')).body.faults, []);
    assert.equal((await h.direct(SUCCESS_ACCOUNT)).body.status, 'SUCCESS', "B's fault is not A's");
    assert.equal((await h.direct(SUCCESS_ACCOUNT, {}, { token: tokenB })).http, 503);
    await ctlB('POST', '/__sandbox/flags', { disabledModes: ['imps'] });
    assert.deepEqual((await h.ctl('GET', '/__sandbox/flags')).body.disabledModes, []);
    const unknown = await h.call('GET', '/__sandbox/balance?clientId=nobody', undefined, { token: null });
    assert.equal(unknown.http, 404, JSON.stringify(unknown.body));
  });

  it('a v2 transfer token is issued for one merchant', async () => {
    const transferId = h.id();
    const token = String(
      (await ctlB('POST', '/__sandbox/transfer-tokens', { transfer_id: transferId, vpa: 'success@upi' })).body
        .transfer_token,
    );
    const send = (headers: Record<string, string>) =>
      h.v2(
        'POST',
        '/payout/transfers',
        { transfer_id: transferId, transfer_token: token, transfer_amount: '1.00', transfer_mode: 'upi' },
        headers,
      );
    assert.notEqual((await send(V2_HEADERS)).http, 200, "B's token does not pay for A");
    const paid = await send(B_V2);
    assert.equal(paid.http, 200, JSON.stringify(paid.body));
  });

  it('each merchant has its own allow-list, and its X-Svc-Signature is over its own client id', async () => {
    await ctlB('POST', '/__sandbox/allowed-ips', { ips: [] });
    assert.equal((await h.authorize()).body.subCode, '200', "B's allow-list is not A's");
    const seconds = Math.floor(Number((await h.ctl('GET', '/__sandbox/clock')).body.now) / 1000);
    const asB = (clientId: string) =>
      h.post('/payout/v1/authorize', undefined, {
        token: null,
        headers: {
          'x-client-id': B.clientId,
          'x-client-secret': B.clientSecret,
          'x-svc-signature': signClientId(h.sb.publicKeyPem, clientId, seconds),
        },
      });
    assertRow(await asB('sandbox_client_id'), COMMON.ipNotWhitelisted);
    assert.equal((await asB(B.clientId)).body.subCode, '200');
  });
});
