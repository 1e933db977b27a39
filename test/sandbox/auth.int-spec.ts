import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signClientId } from '#sandbox';
import { Harness } from './harness.js';

describe('sandbox authentication', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(() => h.close());
  beforeEach(() => h.fresh());

  const sandboxSeconds = async (): Promise<number> =>
    Math.floor(Number((await h.ctl('GET', '/__sandbox/clock')).body.now) / 1000);

  it('authorize answers the documented body with a Unix-seconds expiry 6 minutes out', async () => {
    const res = await h.authorize();
    const data = res.body.data as { token: string; expiry: number };
    assert.equal(res.http, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['data', 'message', 'status', 'subCode']);
    assert.equal(typeof data.token, 'string');
    assert.ok(Number.isInteger(data.expiry));
    assert.equal(data.expiry - (await sandboxSeconds()), 360);
  });

  it('tokens expire on the sandbox clock', async () => {
    assert.equal((await h.post('/payout/v1/verifyToken')).body.subCode, '200');
    await h.advance(6 * 60_000);
    const res = await h.post('/payout/v1/verifyToken');
    assert.equal(res.http, 403);
    assert.equal(res.body.message, 'Token is not valid');
  });

  it('a lowercase bearer scheme is accepted; another scheme is "missing"', async () => {
    const ok = await h.post('/payout/v1/verifyToken', undefined, {
      token: null,
      headers: { authorization: `bearer ${h.token}` },
    });
    assert.equal(ok.body.subCode, '200');
    const basic = await h.post('/payout/v1/verifyToken', undefined, {
      token: null,
      headers: { authorization: 'Basic abc' },
    });
    assert.equal(basic.body.subCode, '412');
  });

  it('X-Svc-Signature replaces the allow-list, and the token it yields works from anywhere', async () => {
    await h.ctl('POST', '/__sandbox/allowed-ips', { ips: [] });
    assert.equal((await h.authorize()).body.message, 'IP not whitelisted');
    const pem = (await h.call('GET', '/__sandbox/public-key', undefined, { token: null })).body.text;
    assert.equal(typeof pem, 'string');
    assert.match(String(pem), /BEGIN PUBLIC KEY/);
    const sig = signClientId(String(pem), 'sandbox_client_id', await sandboxSeconds());
    const res = await h.authorize({ 'x-svc-signature': sig });
    assert.equal(res.body.subCode, '200');
    assert.equal((await h.post('/payout/v1/verifyToken')).body.subCode, '200');
  });

  it("'*' on the allow-list admits any source address (containers on a compose network)", async () => {
    await h.ctl('POST', '/__sandbox/allowed-ips', { ips: ['10.9.8.7'] });
    assert.equal((await h.authorize()).body.message, 'IP not whitelisted');
    await h.ctl('POST', '/__sandbox/allowed-ips', { ips: ['*'] });
    assert.equal((await h.authorize()).body.subCode, '200');
  });

  it('refuses stale, foreign and garbage signatures', async () => {
    await h.ctl('POST', '/__sandbox/allowed-ips', { ips: [] });
    const now = await sandboxSeconds();
    for (const sig of [
      signClientId(h.sb.publicKeyPem, 'sandbox_client_id', now - 301),
      signClientId(h.sb.publicKeyPem, 'someone_else', now),
      'bm90IGEgc2lnbmF0dXJl',
    ]) {
      const res = await h.authorize({ 'x-svc-signature': sig });
      assert.equal(res.body.message, 'IP not whitelisted');
      assert.equal(res.http, 403);
    }
  });

  it('bad credentials: HTTP 401 and subCode "401"', async () => {
    const res = await h.authorize({ 'x-client-id': 'nobody' });
    assert.equal(res.http, 401);
    assert.equal(res.body.subCode, '401');
  });

  it('a token from before a reset is no longer valid', async () => {
    const old = h.token;
    await h.ctl('POST', '/__sandbox/reset');
    const res = await h.post('/payout/v1/verifyToken', undefined, { token: old });
    assert.equal(res.body.message, 'Token is not valid');
  });

  it('SDK token for video KYC', async () => {
    const res = await h.v2('POST', '/verification/oauth/token', {
      app_id: 'app',
      product: 'VKYC',
      metadata: { vkyc_request_id: 1 },
      authenticated_user: { identifier_type: 'userId', identifier_value: 2 },
    });
    assert.equal(res.http, 200);
    assert.match(String(res.body.access_token), /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.match(String(res.body.expires_at), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} IST$/);
  });
});
