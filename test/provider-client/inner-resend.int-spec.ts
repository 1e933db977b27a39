import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ProviderClient, UndiciTransport } from '#provider-client/testing';
import { StubProvider } from './support/stub-provider.js';
import { testClient } from './support/test-client.js';

const RT = '/payout/v1.2/requestTransfer';
const V2 = '/payout/transfers';
const rt = { beneId: 'bene1', amount: '100.00', transferId: 'tr_1' };
const tv2 = {
  transferId: 'tr_v2_1',
  amount: '100.50',
  transferMode: 'banktransfer',
  beneficiary: { beneficiaryId: 'b1' },
} as const;
const balance = { status: 'ERROR', subCode: '400', message: 'Insufficient balance' };

/*
 * Issue 29, defect 5 (a): the client re-sends by itself after an HTTP 429. The pipeline counts the
 * call as attempt 1, so a refusal of the inner re-send looked final; but a 429 may come from an
 * intermediary that forwarded the first attempt, which the provider may have applied ("Insufficient
 * balance" is then the first attempt's debit). The result says so: diagnostics
 * `earlierAttemptMayHaveReached`, so the pipeline treats the refusal like one of a re-send.
 */
describe('an inner re-send: whether an earlier attempt of the call may have reached the provider', () => {
  let stub: StubProvider;
  before(async () => {
    stub = await StubProvider.start();
  });
  after(async () => stub.close());
  beforeEach(() => stub.reset());
  // Closed even when an assertion fails: an open client would keep the test process alive.
  const open: ProviderClient[] = [];
  const track = (c: ProviderClient) => (open.push(c), c);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  it('v1: HTTP 429, then "Insufficient balance": the refusal says an earlier attempt may have reached it', async () => {
    const client = track(testClient(stub));
    stub.on(RT, (_r, n) =>
      n === 1 ? { status: 429, body: { message: 'Too many requests' } } : { status: 400, body: balance },
    );
    const r = await client.call('requestTransfer', rt);
    assert.equal(r.outcome, 'failed', JSON.stringify(r));
    assert.equal(r.diagnostics.attempts, 2);
    assert.equal(r.diagnostics.earlierAttemptMayHaveReached, true);
  });

  it('v1: subCode 429 in a 200 body, then a refusal: the same', async () => {
    const client = track(testClient(stub));
    stub.on(RT, (_r, n) =>
      n === 1
        ? { status: 200, body: { status: 'ERROR', subCode: '429', message: 'Too many requests' } }
        : { status: 200, body: balance },
    );
    const r = await client.call('requestTransfer', rt);
    assert.equal(r.outcome, 'failed', JSON.stringify(r));
    assert.equal(r.diagnostics.earlierAttemptMayHaveReached, true);
  });

  it('v2: HTTP 429, then a field refusal: the same', async () => {
    const client = track(testClient(stub));
    stub.on(V2, (_r, n) =>
      n === 1
        ? { status: 429, body: { message: 'Too many requests' } }
        : {
            status: 400,
            body: { type: 'invalid_request_error', code: 'transfer_amount_invalid', message: 'm' },
          },
    );
    const r = await client.call('transferV2', tv2);
    assert.equal(r.outcome, 'failed', JSON.stringify(r));
    assert.equal(r.diagnostics.earlierAttemptMayHaveReached, true);
  });

  it('a refusal on the first attempt: no earlier attempt', async () => {
    const client = track(testClient(stub));
    stub.on(RT, { status: 400, body: balance });
    const r = await client.call('requestTransfer', rt);
    assert.equal(r.outcome, 'failed');
    assert.equal(r.diagnostics.attempts, 1);
    assert.notEqual(r.diagnostics.earlierAttemptMayHaveReached, true);
  });

  it('after "Token is not valid" (the provider refused the token, unread): no earlier attempt that may have reached it', async () => {
    const client = track(testClient(stub));
    stub.on(RT, (_r, n) =>
      n === 1
        ? { status: 403, body: { status: 'ERROR', subCode: '403', message: 'Token is not valid' } }
        : { status: 400, body: balance },
    );
    const r = await client.call('requestTransfer', rt);
    assert.equal(r.outcome, 'failed', JSON.stringify(r));
    assert.notEqual(r.diagnostics.earlierAttemptMayHaveReached, true);
  });
});

/*
 * Issue 29, defect 5 (b): a requestId HTTP cannot carry in a header (CR/LF, control characters,
 * characters past Latin-1) was refused locally by undici, and the call recorded as sent (unknown,
 * in doubt). It never left: a certain "not sent", refused before any attempt.
 */
describe('a requestId refused as a header: certainly not sent', () => {
  let stub: StubProvider;
  before(async () => {
    stub = await StubProvider.start();
  });
  after(async () => stub.close());
  beforeEach(() => stub.reset());
  // Closed even when an assertion fails: an open client would keep the test process alive.
  const open: ProviderClient[] = [];
  const track = (c: ProviderClient) => (open.push(c), c);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  for (const [what, requestId] of [
    ['CR LF', 'req\r\nX-Injected: 1'],
    ['NUL', 'req\u0000'],
    ['an emoji', 'req-😀'],
  ] as const) {
    it(`v1 and v2 with ${what}: refused unsent, no attempt, nothing reached the stub`, async () => {
      const client = track(testClient(stub));
      stub.on(RT, { body: { status: 'SUCCESS', subCode: '200', message: 'ok', data: { referenceId: '1' } } });
      for (const r of [
        await client.call('requestTransfer', rt, { requestId }),
        await client.call('transferV2', tv2, { requestId }),
      ]) {
        assert.equal(r.outcome, 'failed', JSON.stringify(r));
        assert.equal(r.outcome === 'failed' ? r.kind : '', 'invalid-request');
        assert.equal(r.diagnostics.sent, false);
        assert.equal(r.diagnostics.attempts, 0);
      }
      assert.equal(stub.count(RT), 0);
      assert.equal(stub.count(V2), 0);
    });
  }
});

describe('the transport: a header undici refuses locally was never sent', () => {
  it('a CR/LF header value is sent: false (the one case a call may be repeated blindly)', async () => {
    const stub = await StubProvider.start();
    const t = new UndiciTransport();
    try {
      const out = await t.send({
        method: 'GET',
        url: `${stub.url}/x`,
        headers: { 'x-request-id': 'a\r\nb' },
        timeouts: { connectMs: 500, headersMs: 500, bodyMs: 500 },
      });
      assert.deepEqual(out, { ok: false, sent: false, errorCode: 'UND_ERR_INVALID_ARG' });
      assert.equal(stub.count('/x'), 0);
    } finally {
      await t.close();
      await stub.close();
    }
  });
});
