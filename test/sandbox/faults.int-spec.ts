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

  it('apply, then answer 5xx: the transfer happened although the answer says error', async () => {
    const transferId = h.id();
    await h.fault({ endpoint: 'directTransfer', applyThenStatus: 503, times: 1 });
    const first = await h.direct(SUCCESS_ACCOUNT, { transferId });
    assert.equal(first.http, 503);
    const status = await h.get('/payout/v1.2/getTransferStatus', { transferId });
    assert.equal((status.body.data as { transfer: { status: string } }).transfer.status, 'SUCCESS');
    assert.equal((await received(transferId)).accepted, 1);
  });

  it('apply, then answer late (sandbox clock): applied before the answer arrives', async () => {
    const transferId = h.id();
    await h.fault({ endpoint: 'directTransfer', applyThenLatencyMs: 60_000, times: 1 });
    let answered = false;
    const p = h.direct(SUCCESS_ACCOUNT, { transferId }).then((r) => ((answered = true), r));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(answered, false);
    assert.equal((await received(transferId)).accepted, 1);
    await h.advance(60_000);
    assert.equal((await p).body.subCode, '200');
  });

  it('apply then 5xx on v2 too', async () => {
    const transferId = h.id('V');
    const token = await h.transferToken(transferId);
    await h.fault({ endpoint: 'processValidatedPayout', applyThenStatus: 502, times: 1 });
    const res = await h.v2('POST', '/payout/transfers', {
      transfer_id: transferId,
      transfer_token: token,
      transfer_amount: '1.00',
      transfer_mode: 'upi',
    });
    assert.equal(res.http, 502);
    assert.equal((await received(transferId)).accepted, 1);
  });

  it('random mode: the seeded share of initiations get a fault, the same ones for the same seed', async () => {
    const run = async (): Promise<{ http: string[]; injected: Record<string, number>; calls: number }> => {
      await h.fresh();
      await h.ctl('POST', '/__sandbox/fault-mode', {
        rate: 0.3,
        seed: 7,
        kinds: ['http5xx', 'applyThen5xx', 'subCode520', 'loseAnswer'],
      });
      const http: string[] = [];
      for (let i = 0; i < 200; i += 1) {
        const r = await h.direct(SUCCESS_ACCOUNT).then(
          (x) => String(x.http),
          () => 'lost',
        );
        http.push(r);
      }
      // Status calls are not initiations: random mode leaves them alone.
      assert.equal((await h.get('/payout/v1/getTransferStatus', { transferId: 'x' })).body.subCode, '404');
      const view = (await h.ctl('GET', '/__sandbox/fault-mode')).body as {
        injected: Record<string, number>;
        calls: number;
      };
      return { http, injected: view.injected, calls: view.calls };
    };
    const a = await run();
    const faulted = Object.values(a.injected).reduce((x, y) => x + y, 0);
    assert.equal(a.calls, 200);
    assert.ok(faulted >= 40 && faulted <= 80, `30 % of 200 expected, got ${faulted}`);
    assert.equal(Object.keys(a.injected).length, 4, JSON.stringify(a.injected));
    assert.equal(a.http.filter((x) => x === 'lost').length, a.injected['loseAnswer']);
    assert.deepEqual((await run()).http, a.http);
    const summary = (await h.ctl('GET', '/__sandbox/received/summary')).body as {
      total: number;
      accepted: number;
      acceptedMoreThanOnce: unknown[];
    };
    // Everything but 'http5xx' and 'subCode520' was applied.
    assert.equal(summary.total, 200 - (a.injected['http5xx'] ?? 0) - (a.injected['subCode520'] ?? 0));
    assert.equal(summary.accepted, summary.total);
    assert.deepEqual(summary.acceptedMoreThanOnce, []);
    await h.ctl('DELETE', '/__sandbox/fault-mode');
    assert.equal((await h.direct(SUCCESS_ACCOUNT)).body.subCode, '200');
  });

  it('lists every transfer with its status now', async () => {
    const transferId = h.id();
    await h.fault({ endpoint: 'directTransfer', loseAnswer: 'reset', times: 1 });
    await assert.rejects(h.direct(SUCCESS_ACCOUNT, { transferId }));
    const list = (await h.ctl('GET', '/__sandbox/transfers')).body as {
      transfers: { account: string; transferId: string; endpoint: string; status: string }[];
    };
    const t = list.transfers.find((x) => x.transferId === transferId);
    assert.deepEqual(
      { account: t?.account, endpoint: t?.endpoint, status: t?.status },
      { account: 'sandbox_client_id', endpoint: 'directTransfer', status: 'SUCCESS' },
    );
  });

  it('received summary names every (account, id) accepted more than once', async () => {
    const transferId = h.id();
    assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId })).body.subCode, '200');
    // The sandbox refuses a second initiation of the same id; force a second acceptance record
    // the way a provider bug would show, to prove the summary sees it.
    h.sb.world.account.receive('directTransfer', transferId, true, '200');
    const summary = (await h.ctl('GET', '/__sandbox/received/summary')).body as {
      acceptedMoreThanOnce: { account: string; transferId: string; accepted: number }[];
    };
    assert.deepEqual(summary.acceptedMoreThanOnce, [
      { account: 'sandbox_client_id', transferId, accepted: 2 },
    ]);
  });

  it('lose the answer by hanging, on v2', async () => {
    const transferId = h.id('V');
    const token = await h.transferToken(transferId);
    await h.fault({ endpoint: 'processValidatedPayout', loseAnswer: 'hang', times: 1 });
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
    await h.ctl('POST', '/__sandbox/rate-limits', { endpoint: 'getTransferStatusV2', perMinute: 2 });
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
