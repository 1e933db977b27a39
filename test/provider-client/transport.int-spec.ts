import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { type AddressInfo } from 'node:net';
import {
  MemorySlotStore,
  type OutcomeClass,
  type ProviderClientMetrics,
  type RateBudget,
  SharedRateBudget,
} from '#provider-client/testing';
import { StubProvider } from './support/stub-provider.js';
import { testClient } from './support/test-client.js';
import { v2Transfer } from './support/endpoint-cases.js';

const RT = '/payout/v1.2/requestTransfer';
const V2 = '/payout/transfers';
const ok = {
  status: 'SUCCESS',
  subCode: '200',
  message: 'ok',
  data: { referenceId: '1', utr: '', acknowledged: 0 },
};
const rt = { beneId: 'bene1', amount: '100.00', transferId: 'tr_1' };
const pvp = { transferId: 'tr_v2_1', transferAmount: '100.50', transferToken: 'tt-secret-1' };

class RecordingMetrics implements ProviderClientMetrics {
  readonly requests: [string, OutcomeClass][] = [];
  readonly waits: [string, number][] = [];
  limited = 0;
  observeRequest(e: string, o: OutcomeClass): void {
    this.requests.push([e, o]);
  }
  authorize(): void {}
  rateLimitWait(e: string, s: number): void {
    this.waits.push([e, s]);
  }
  rateLimited(): void {
    this.limited += 1;
  }
  readonly bounced: string[] = [];
  balanceRefused(accountId: string): void {
    this.bounced.push(accountId);
  }
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('transport: timeouts, resets, rate limits, headers, amounts', () => {
  let stub: StubProvider;
  before(async () => {
    stub = await StubProvider.start();
  });
  after(async () => stub.close());
  beforeEach(() => stub.reset());

  it('a hang past the headers timeout is unknown, sent once, never re-initiated', async () => {
    const t = { connectMs: 300, headersMs: 300, bodyMs: 300 };
    const client = testClient(stub, { timeouts: { default: t, transfer: t } });
    stub.on(RT, { hang: true });
    const started = Date.now();
    const r = await client.call('requestTransfer', rt);
    assert.equal(r.outcome, 'unknown');
    assert.equal(r.diagnostics.sent, true);
    assert.equal(r.diagnostics.errorCode, 'UND_ERR_HEADERS_TIMEOUT');
    assert.ok(Date.now() - started < 4000);
    assert.equal(stub.count(RT), 1);
    await client.close();
  });

  it('per-endpoint timeout overrides apply', async () => {
    const t = { connectMs: 300, headersMs: 5000, bodyMs: 5000 };
    const client = testClient(stub, {
      timeouts: { default: t, transfer: t, perEndpoint: { getTransferStatus: { headersMs: 200 } } },
    });
    stub.on('/payout/v1.2/getTransferStatus', { hang: true });
    const started = Date.now();
    const r = await client.call('getTransferStatus', { transferId: 'tr_1' });
    assert.equal(r.outcome, 'unknown');
    assert.ok(Date.now() - started < 4000, 'the 200 ms override applied, not the 5 s default');
    await client.close();
  });

  it('a body that stalls past the body timeout is unknown, sent once', async () => {
    const t = { connectMs: 300, headersMs: 300, bodyMs: 300 };
    const client = testClient(stub, { timeouts: { default: t, transfer: t } });
    stub.on(RT, { stallBody: '{"status":"SUCC' });
    const r = await client.call('requestTransfer', rt);
    assert.equal(r.outcome, 'unknown');
    assert.equal(r.diagnostics.errorCode, 'UND_ERR_BODY_TIMEOUT');
    assert.equal(stub.count(RT), 1);
    await client.close();
  });

  it('answers refusing a transfer for the balance are counted per configured account; other refusals are not', async () => {
    const metrics = new RecordingMetrics();
    const client = testClient(stub, {}, { metrics });
    const refuse = (message: string) => ({ status: 400, body: { status: 'ERROR', subCode: '400', message } });
    stub.on(RT, refuse('Insufficient balance in account'));
    const r = await client.call('requestTransfer', rt);
    assert.equal(r.outcome === 'failed' && r.shortOfFunds, true, JSON.stringify(r));
    assert.deepEqual(metrics.bounced, ['acc-1']);
    stub.on(RT, refuse('Attempt failed at bank'));
    assert.equal((await client.call('requestTransfer', rt)).outcome, 'failed');
    stub.on(V2, { body: v2Transfer('FAILED', 'INSUFFICIENT_BALANCE') });
    assert.equal((await client.call('getTransferStatusV2', { transferId: 'a' })).outcome, 'failed');
    stub.on(V2, { body: v2Transfer('FAILED', 'BENE_BANK_DECLINED') });
    assert.equal((await client.call('getTransferStatusV2', { transferId: 'b' })).outcome, 'failed');
    assert.deepEqual(metrics.bounced, ['acc-1', 'acc-1'], 'two of four refusals were for the balance');
    await client.close();
  });

  it('x-ratelimit-remaining 0 on a success pauses the next call for x-ratelimit-retry', async () => {
    const metrics = new RecordingMetrics();
    const client = testClient(stub, {}, { metrics });
    stub.on(V2, (_r, n) => ({
      headers: n === 1 ? { 'x-ratelimit-remaining': '0', 'x-ratelimit-retry': '1' } : undefined,
      body: v2Transfer('SUCCESS', 'COMPLETED'),
    }));
    assert.equal((await client.call('getTransferStatusV2', { transferId: 'a' })).outcome, 'success');
    const started = Date.now();
    assert.equal((await client.call('getTransferStatusV2', { transferId: 'b' })).outcome, 'success');
    assert.ok(Date.now() - started >= 900);
    assert.equal(metrics.waits.length, 1);
    await client.close();
  });

  it('a connection reset after sending is unknown, sent once', async () => {
    const client = testClient(stub);
    stub.on(RT, { reset: true });
    const r = await client.call('requestTransfer', rt);
    assert.equal(r.outcome, 'unknown');
    assert.equal(stub.count(RT), 1);
    await client.close();
  });

  it('connection refused is retry-safe (never sent), retried a bounded number of times', async () => {
    const port = await closedPort();
    const client = testClient(stub, {
      hosts: { baseUrl: `http://127.0.0.1:${port}`, payoutUrl: `http://127.0.0.1:${port}` },
    });
    const r = await client.call('processValidatedPayout', pvp);
    assert.equal(r.outcome, 'retry-safe', JSON.stringify(r));
    assert.equal(r.diagnostics.sent, false);
    assert.equal(r.diagnostics.attempts, 3);
    await client.close();
  });

  const rateHeaders: readonly (readonly [string, Record<string, string>])[] = [
    [
      'x-ratelimit-retry',
      { 'x-ratelimit-retry': '1', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' },
    ],
    ['Retry-After', { 'retry-after': '1' }],
  ];
  for (const [name, headers] of rateHeaders) {
    it(`a 429 waits for ${name} and then succeeds`, async () => {
      const metrics = new RecordingMetrics();
      const client = testClient(stub, {}, { metrics });
      stub.on(V2, (_r, n) =>
        n === 1
          ? { status: 429, headers, body: { message: 'Too many requests' } }
          : { body: v2Transfer('SUCCESS', 'COMPLETED') },
      );
      const started = Date.now();
      const r = await client.call('processValidatedPayout', pvp);
      const elapsed = Date.now() - started;
      assert.equal(r.outcome, 'success');
      assert.equal(stub.count(V2), 2);
      assert.ok(elapsed >= 950, `waited only ${elapsed} ms`);
      assert.ok(metrics.waits.some(([e, s]) => e === 'POST /payout/transfers' && s >= 0.9));
      await client.close();
    });
  }

  it('a 429 asking for longer than the wait cap is answered retry-safe at once', async () => {
    const client = testClient(stub, { maxRateLimitWaitMs: 500 });
    stub.on(V2, { status: 429, headers: { 'x-ratelimit-retry': '30' }, body: {} });
    const r = await client.call('processValidatedPayout', pvp);
    assert.equal(r.outcome, 'retry-safe');
    assert.equal(r.outcome === 'retry-safe' ? r.retryAfterMs : 0, 30_000);
    assert.equal(stub.count(V2), 1);
    await client.close();
  });

  it('the local token bucket spaces calls per account and endpoint', async () => {
    const metrics = new RecordingMetrics();
    const rate = { transfer: 120, status: 600_000, authorize: 600_000, balance: 600_000, default: 600_000 };
    const client = testClient(stub, { ratePerMinute: rate, rateTargetFraction: 0.95 }, { metrics });
    stub.on(RT, { body: ok });
    const started = Date.now();
    await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => client.call('requestTransfer', { ...rt, transferId: `tr_${i}` })),
    );
    // At 0.95 of 120/min (a step of 526 ms), a burst of 5 keeps every minute at or under 120
    // (burstSlots: 120 - 60.1 s / 526 ms); the sixth waits a step.
    assert.ok(Date.now() - started >= 450);
    assert.equal(metrics.waits.length, 1);
    await client.close();
  });

  it('a rate budget that cannot be asked refuses the call: retry-safe, nothing sent', async () => {
    const unreachable: RateBudget = {
      acquire: async () => ({ ok: false, reason: 'unavailable' }),
      pause: () => undefined,
      close: async () => undefined,
    };
    const client = testClient(stub, {}, { rateBudget: unreachable });
    stub.on(V2, { body: v2Transfer('SUCCESS', 'COMPLETED') });
    const r = await client.call('processValidatedPayout', pvp);
    assert.equal(r.outcome, 'retry-safe');
    assert.equal(r.outcome === 'retry-safe' ? r.reason : '', 'Rate budget unavailable; not sent');
    assert.equal(r.diagnostics.sent, false);
    assert.equal(stub.count(V2), 0);
    await client.close();
  });

  it('a slot that passed before the call went out is not used: the call takes a new one, or is not sent', async () => {
    // The budget checks lateness when it hands out the slot; headers (a token refresh, a stalled
    // process) may come between that and the send, so the executor asks again just before it.
    let asked = 0;
    const lateOnce: RateBudget = {
      acquire: async () => {
        asked += 1;
        return { ok: true, waitedMs: 1, onTime: () => asked > 1 };
      },
      pause: () => undefined,
      close: async () => undefined,
    };
    const client = testClient(stub, {}, { rateBudget: lateOnce });
    stub.on(V2, { body: v2Transfer('SUCCESS', 'COMPLETED') });
    const r = await client.call('processValidatedPayout', pvp);
    assert.equal(r.outcome, 'success');
    assert.equal(asked, 2, 'a second slot');
    assert.equal(stub.count(V2), 1, 'sent once, on the second slot');
    await client.close();

    const alwaysLate: RateBudget = {
      ...lateOnce,
      acquire: async () => ({ ok: true, waitedMs: 1, onTime: () => false }),
    };
    const late = testClient(stub, {}, { rateBudget: alwaysLate });
    const r2 = await late.call('processValidatedPayout', { ...pvp, transferId: 'tr_v2_late' });
    assert.equal(r2.outcome, 'retry-safe');
    assert.equal(
      r2.outcome === 'retry-safe' ? r2.reason : '',
      'Rate limit slot passed before sending; not sent',
    );
    assert.equal(r2.diagnostics.sent, false);
    assert.equal(stub.count(V2), 1, 'nothing more sent');
    await late.close();
  });

  it('a 429 one instance gets pauses the shared budget for the others too', async () => {
    const store = new MemorySlotStore(() => performance.now());
    const shared = () =>
      new SharedRateBudget({ perMinuteFor: () => 600_000, blockMs: 100, horizonMs: 200 }, { store });
    const metrics = new RecordingMetrics();
    const a = testClient(stub, {}, { rateBudget: shared(), metrics });
    const b = testClient(stub, {}, { rateBudget: shared() });
    stub.on(V2, (_r, n) =>
      n === 1
        ? { status: 429, headers: { 'x-ratelimit-retry': '1' }, body: { message: 'Too many requests' } }
        : { body: v2Transfer('SUCCESS', 'COMPLETED') },
    );
    const first = a.call('processValidatedPayout', pvp);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const r = await b.call('processValidatedPayout', { ...pvp, transferId: 'tr_v2_2' });
    assert.equal(r.outcome, 'success');
    assert.ok(Date.now() - started >= 600, `b sent ${Date.now() - started} ms after a's 429`);
    assert.equal((await first).outcome, 'success');
    assert.equal(metrics.limited, 1, 'the 429 is counted');
    await a.close();
    await b.close();
  });

  it("propagates the caller's X-Request-Id and sends v2 client headers", async () => {
    const client = testClient(stub, { apiVersion: '2025-01-01' });
    stub.on(V2, { body: v2Transfer('RECEIVED') });
    const r = await client.call('processValidatedPayout', pvp, { requestId: 'req-abc-123' });
    assert.equal(r.outcome, 'pending');
    assert.equal(r.diagnostics.requestId, 'req-abc-123');
    const h = stub.calls(V2)[0]!.headers;
    assert.equal(h['x-request-id'], 'req-abc-123');
    assert.equal(h['x-client-id'], 'test_client_id');
    assert.equal(h['x-client-secret'], 'test-client-secret-value');
    assert.equal(h['x-api-version'], '2025-01-01');
    await client.close();
  });

  it('amounts go out as exact decimal literals: numbers where the provider wants numbers, strings elsewhere', async () => {
    const client = testClient(stub);
    stub.on(RT, { body: ok });
    stub.on('/payout/v1/cardpay', { body: ok });
    stub.on(V2, { body: v2Transfer('RECEIVED') });
    await client.call('requestTransfer', { ...rt, amount: '12345678901.23' });
    await client.call('requestTransfer', { ...rt, amount: '100.10' });
    await client.call('cardpay', { token: 'ctok', amount: '10.00', transferId: 'c-1' });
    await client.call('processValidatedPayout', pvp);
    const [a, b] = stub.calls(RT).map((c) => c.body);
    assert.match(a!, /"amount":12345678901\.23[,}]/);
    assert.match(b!, /"amount":100\.10[,}]/);
    assert.match(stub.calls('/payout/v1/cardpay')[0]!.body, /"amount":"10\.00"/);
    assert.match(stub.calls(V2)[0]!.body, /"transfer_amount":"100\.50"/);
    await client.close();
  });
});
