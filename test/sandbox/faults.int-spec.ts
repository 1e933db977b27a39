import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, SUCCESS_ACCOUNT } from './harness.js';

interface Received {
  initiations: { transferId: string; accepted: boolean; endpoint: string }[];
  accepted: number;
}

/** Injected faults, and the "what did the sandbox receive" log tests use to prove idempotency. */
describe('sandbox fault injection', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(() => h.close());
  beforeEach(() => h.fresh());

  const received = async (transferId: string): Promise<Received> =>
    (await h.ctl('GET', `/__sandbox/received?transferId=${transferId}`)).body as unknown as Received;

  it('latency is on the sandbox clock: advancing releases the answer', async () => {
    await h.fault({ endpoint: 'directTransfer', latencyMs: 10_000, times: 1 });
    let answered = false;
    const p = h.direct(SUCCESS_ACCOUNT).then((r) => ((answered = true), r));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(answered, false);
    await h.advance(10_000);
    assert.equal((await p).body.subCode, '200');
  });

  it('hang: no answer until the client gives up; nothing was applied', async () => {
    await h.fault({ endpoint: 'requestTransfer', hang: true, times: 1 });
    const started = Date.now();
    await assert.rejects(
      fetch(`${h.sb.url}/payout/v1.2/requestTransfer`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}` },
        signal: AbortSignal.timeout(150),
      }),
      /TimeoutError|aborted/i,
    );
    assert.ok(Date.now() - started >= 140);
  });

  it('HTTP 5xx and subCode 520', async () => {
    await h.fault({ endpoint: 'directTransfer', httpStatus: 503, times: 1 });
    const five = await h.direct(SUCCESS_ACCOUNT);
    assert.equal(five.http, 503);
    await h.fault({ endpoint: 'directTransfer', subCode520: true, times: 1 });
    const t = await h.direct(SUCCESS_ACCOUNT);
    assert.equal(t.body.subCode, '520');
    assert.equal(t.http, 520);
    assert.equal((await h.direct(SUCCESS_ACCOUNT)).body.subCode, '200');
  });

  it('connection reset', async () => {
    await h.fault({ endpoint: 'getTransferStatus', reset: true, times: 1 });
    await assert.rejects(h.get('/payout/v1/getTransferStatus', { transferId: 'x' }));
    assert.equal((await h.get('/payout/v1/getTransferStatus', { transferId: 'x' })).body.subCode, '404');
  });

  it('429 bursts then normal service', async () => {
    await h.fault({ endpoint: 'directTransfer', burst429: 2 });
    assert.equal((await h.direct(SUCCESS_ACCOUNT)).http, 429);
    assert.equal((await h.direct(SUCCESS_ACCOUNT)).body.subCode, '429');
    assert.equal((await h.direct(SUCCESS_ACCOUNT)).body.subCode, '200');
  });

  it('apply the transfer but lose the answer; a re-send is refused and only one was accepted', async () => {
    const transferId = h.id();
    await h.fault({ endpoint: 'directTransfer', loseAnswer: 'reset', times: 1 });
    await assert.rejects(h.direct(SUCCESS_ACCOUNT, { transferId }));
    const status = await h.get('/payout/v1.2/getTransferStatus', { transferId });
    assert.equal((status.body.data as { transfer: { status: string } }).transfer.status, 'SUCCESS');
    const again = await h.direct(SUCCESS_ACCOUNT, { transferId });
    assert.equal(again.http, 409);
    const log = await received(transferId);
    assert.equal(log.initiations.length, 2);
    assert.equal(log.accepted, 1);
  });

  it('lose the answer by hanging, on v2', async () => {
    const transferId = h.id('V');
    const token = await h.transferToken(transferId);
    await h.fault({ endpoint: 'v2Transfer', loseAnswer: 'hang', times: 1 });
    await assert.rejects(
      fetch(`${h.sb.url}/payout/transfers`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-client-id': 'sandbox_client_id',
          'x-client-secret': 'sandbox_client_secret',
          'x-api-version': '2024-01-01',
        },
        body: JSON.stringify({
          transfer_id: transferId,
          transfer_token: token,
          transfer_amount: '1.00',
          transfer_mode: 'upi',
        }),
        signal: AbortSignal.timeout(150),
      }),
    );
    const st = await h.v2('GET', `/payout/transfers?transfer_id=${transferId}`);
    assert.equal(st.body.status, 'SUCCESS');
    assert.equal((await received(transferId)).accepted, 1);
  });

  it('per-endpoint rate limit with x-ratelimit headers on v2', async () => {
    await h.ctl('POST', '/__sandbox/rate-limits', { endpoint: 'v2TransferStatus', perMinute: 2 });
    const a = await h.v2('GET', '/payout/transfers?transfer_id=x');
    assert.equal(a.headers.get('x-ratelimit-limit'), '2');
    assert.equal(a.headers.get('x-ratelimit-remaining'), '1');
    await h.v2('GET', '/payout/transfers?transfer_id=x');
    const c = await h.v2('GET', '/payout/transfers?transfer_id=x');
    assert.equal(c.http, 429);
    const retry = Number(c.headers.get('x-ratelimit-retry'));
    assert.ok(retry >= 1 && retry <= 59, String(retry));
    await h.advance(60_000);
    assert.equal((await h.v2('GET', '/payout/transfers?transfer_id=x')).http, 404);
  });

  it('lists and clears faults', async () => {
    await h.fault({ endpoint: '*', latencyMs: 1 });
    assert.equal(((await h.ctl('GET', '/__sandbox/faults')).body.faults as unknown[]).length, 1);
    await h.ctl('DELETE', '/__sandbox/faults');
    assert.equal(((await h.ctl('GET', '/__sandbox/faults')).body.faults as unknown[]).length, 0);
  });
});
