import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, providerHostsConfig, resolveProviderHosts } from '#config';
import {
  createProviderClient,
  providerClientConfig,
  providerClientOptionsFromConfig,
} from '#provider-client/testing';
import { AUTHORIZE_PATH, StubProvider } from './support/stub-provider.js';
import { TEST_ACCOUNT, testClient } from './support/test-client.js';

const RT = '/payout/v1.2/requestTransfer';
const ok = {
  status: 'SUCCESS',
  subCode: '200',
  message: 'Transfer completed',
  data: { referenceId: '1', utr: 'U', acknowledged: 1 },
};
const rt = (i: number) => ({ beneId: 'bene1', amount: '100.00', transferId: `tr_${i}` });

describe('auth: token store, refresh, signature', () => {
  let stub: StubProvider;
  before(async () => {
    stub = await StubProvider.start();
  });
  after(async () => stub.close());
  beforeEach(() => stub.reset());

  it('200 concurrent calls with an expired token cause exactly one authorize, and all succeed', async () => {
    const client = testClient(stub);
    let issued = 0;
    stub.on(AUTHORIZE_PATH, () => {
      issued += 1;
      // The first token is already past its expiry: every caller finds it due.
      return { body: issued === 1 ? stub.tokenBody(-10) : stub.tokenBody(360), delayMs: 50 };
    });
    stub.on(RT, { body: ok });
    assert.equal((await client.call('requestTransfer', rt(0))).outcome, 'success');
    assert.equal(stub.count(AUTHORIZE_PATH), 1);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => client.call('requestTransfer', rt(i + 1))),
    );
    assert.equal(stub.count(AUTHORIZE_PATH), 2);
    assert.deepEqual(new Set(results.map((r) => r.outcome)), new Set(['success']));
    const tokens = new Set(
      stub
        .calls(RT)
        .slice(1)
        .map((c) => c.headers.authorization),
    );
    assert.deepEqual(tokens, new Set(['Bearer bearer-token-2']));
    await client.close();
  });

  it('refreshes ahead of expiry by the configured margin, not on every call', async () => {
    const client = testClient(stub, { tokenRefreshMarginSeconds: 60 });
    stub.on(AUTHORIZE_PATH, () => ({ body: stub.tokenBody(360) }));
    stub.on(RT, { body: ok });
    for (let i = 0; i < 5; i++) await client.call('requestTransfer', rt(i));
    assert.equal(stub.count(AUTHORIZE_PATH), 1);
    await client.close();
  });

  it('re-authorizes and retries once on "Token is not valid", then succeeds', async () => {
    const client = testClient(stub);
    stub.on(RT, (_r, n) =>
      n === 1
        ? { status: 403, body: { status: 'ERROR', subCode: '403', message: 'Token is not valid' } }
        : { body: ok },
    );
    const r = await client.call('requestTransfer', rt(1));
    assert.equal(r.outcome, 'success');
    assert.equal(stub.count(RT), 2);
    assert.equal(stub.count(AUTHORIZE_PATH), 2);
    const [a, b] = stub.calls(RT);
    assert.equal(a?.body, b?.body, 'the re-send is byte-identical (same transferId)');
    await client.close();
  });

  for (const message of ['IP not whitelisted', 'APIs not enabled for this account']) {
    it(`"${message}" on a transfer is fatal-config: exactly one call, no re-authorize`, async () => {
      const client = testClient(stub);
      stub.on(RT, { status: 403, body: { status: 'ERROR', subCode: 403, message } });
      const r = await client.call('requestTransfer', rt(1));
      assert.equal(r.outcome, 'fatal-config');
      assert.equal(stub.count(RT), 1);
      assert.equal(stub.count(AUTHORIZE_PATH), 1);
      await client.close();
    });
  }

  for (const [http, message] of [
    [401, 'Invalid clientId and clientSecret combination'],
    [403, 'IP not whitelisted'],
  ] as const) {
    it(`an error body at authorize (${http} ${message}) is fatal-config, never a crash, and nothing is sent`, async () => {
      const client = testClient(stub);
      stub.on(AUTHORIZE_PATH, { status: http, body: { status: 'ERROR', subCode: String(http), message } });
      stub.on(RT, { body: ok });
      const a = await client.authorize();
      assert.equal(a.outcome, 'fatal-config');
      const r = await client.call('requestTransfer', rt(1));
      assert.equal(r.outcome, 'fatal-config');
      assert.equal(r.diagnostics.sent, false);
      assert.equal(stub.count(RT), 0);
      await client.close();
    });
  }

  it('a SUCCESS authorize without data.token is not a token (the SDK bug)', async () => {
    const client = testClient(stub, { maxAttempts: 1 });
    stub.on(AUTHORIZE_PATH, { body: { status: 'SUCCESS', subCode: '200', message: 'Token generated' } });
    const r = await client.call('requestTransfer', rt(1));
    assert.equal(r.outcome, 'retry-safe');
    assert.equal(stub.count(RT), 0);
    await client.close();
  });

  it('sends X-Svc-Signature that decrypts to "<client_id>.<now>" with the private key', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const client = testClient(stub, { accounts: [{ ...TEST_ACCOUNT, publicKey: pem }] });
    const before = Math.floor(Date.now() / 1000);
    assert.equal((await client.authorize()).outcome, 'success');
    assert.equal((await client.authorize()).outcome, 'success');
    const sigs = stub.calls(AUTHORIZE_PATH).map((c) => String(c.headers['x-svc-signature']));
    assert.equal(new Set(sigs).size, 2, 'a fresh signature per authorize');
    for (const sig of sigs) {
      const plain = privateDecrypt(
        { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
        Buffer.from(sig, 'base64'),
      ).toString('utf8');
      const [id, ts] = plain.split('.');
      assert.equal(id, TEST_ACCOUNT.clientId);
      assert.ok(Math.abs(Number(ts) - before) <= 1, `timestamp ${ts} vs ${before}`);
    }
    assert.equal(stub.calls(AUTHORIZE_PATH)[0]?.headers['x-client-id'], TEST_ACCOUNT.clientId);
    await client.close();
  });

  it('builds from config: public key file, several accounts, each with its own token', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dir = mkdtempSync(join(tmpdir(), 'pc-'));
    const file = join(dir, 'pub.pem');
    writeFileSync(file, publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const port = new URL(stub.url).port;
    const [cfg, hosts] = loadConfig([providerClientConfig, providerHostsConfig], {
      SANDBOX_PORT: port,
      PROVIDER_PUBLIC_KEY_FILE: file,
      PROVIDER_ACCOUNTS: JSON.stringify([{ accountId: 'acc-2', clientId: 'cid2', clientSecret: 'sec2' }]),
    });
    const opts = providerClientOptionsFromConfig(cfg, resolveProviderHosts(hosts));
    assert.equal(opts.accounts.length, 2);
    assert.equal(opts.accounts[0]?.clientId, 'sandbox_client_id');
    const client = createProviderClient(opts);
    stub.on(RT, { body: ok });
    await client.call('requestTransfer', rt(1));
    await client.call('requestTransfer', rt(2), { accountId: 'acc-2' });
    const auths = stub.calls(AUTHORIZE_PATH);
    assert.deepEqual(
      auths.map((c) => c.headers['x-client-id']),
      ['sandbox_client_id', 'cid2'],
    );
    assert.ok(auths[0]?.headers['x-svc-signature'], 'signed with the key from the file');
    assert.equal(auths[1]?.headers['x-svc-signature'], undefined);
    const unknownAccount = await client.call('requestTransfer', rt(3), { accountId: 'nope' });
    assert.equal(unknownAccount.outcome, 'fatal-config');
    await client.close();
  });
});
