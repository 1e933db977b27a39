import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { createLogger } from '#observability';
import { AUTHORIZE_PATH, StubProvider } from './support/stub-provider.js';
import { TEST_ACCOUNT, testClient } from './support/test-client.js';

function capture(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { lines, sink };
}

describe('secrets stay out of diagnostics and logs; metrics carry no ids', () => {
  let stub: StubProvider;
  before(async () => {
    stub = await StubProvider.start();
  });
  after(async () => stub.close());
  beforeEach(() => stub.reset());

  it('a provider message echoing every secret of the call is scrubbed everywhere but the typed data', async () => {
    const { lines, sink } = capture();
    const logger = createLogger({ level: 'debug', name: 'pc-test', destination: sink });
    const client = testClient(stub, {}, { logger });
    const card = {
      token: 'CARD-TOKEN-4111',
      cryptogram: 'CRYPTO-GRAM-9',
      amount: '10.00',
      transferId: 'c-1',
    };
    stub.on('/payout/v1/cardpay', (req) => ({
      status: 520,
      body: {
        status: 'ERROR',
        subCode: 520,
        message: `boom ${String(req.headers.authorization)} ${card.token} ${card.cryptogram} ${TEST_ACCOUNT.clientSecret}`,
      },
    }));
    const transferToken = 'TRANSFER-TOKEN-77';
    stub.on('/payout/transfers', {
      status: 400,
      body: {
        code: 'transfer_token_invalid',
        message: `token ${transferToken} invalid; secret ${TEST_ACCOUNT.clientSecret}`,
      },
    });
    stub.on('/verification/oauth/token', {
      body: { access_token: 'SDK-ACCESS-TOKEN-55', expires_at: '2030-01-01 00:00:00 IST' },
    });

    const r1 = await client.call('cardpay', card);
    const r2 = await client.call('processValidatedPayout', {
      transferId: 't1',
      transferAmount: '1.00',
      transferToken,
    });
    const r3 = await client.call('createSdkToken', {
      appId: 'a',
      product: 'VKYC',
      metadata: { vkyc_request_id: 1 },
      authenticatedUser: { identifierType: 'userId', identifierValue: 1 },
    });
    assert.equal(r1.outcome, 'unknown');
    assert.equal(r2.outcome, 'failed');
    assert.equal(r3.outcome, 'success');
    assert.equal(r3.outcome === 'success' ? r3.data.accessToken : '', 'SDK-ACCESS-TOKEN-55');
    assert.match(r1.diagnostics.message ?? '', /\[REDACTED\]/);
    await new Promise((r) => setImmediate(r));

    const bearer = 'bearer-token-1';
    const secrets = [bearer, card.token, card.cryptogram, TEST_ACCOUNT.clientSecret, transferToken];
    const shown = JSON.stringify([r1, r2, r3.diagnostics]) + lines.join('');
    for (const s of [...secrets, 'SDK-ACCESS-TOKEN-55'])
      assert.ok(!shown.includes(s), `${s} leaked: ${shown}`);
    assert.ok(lines.length >= 3, 'every call was logged');
    // The secret reached the provider: scrubbing is of what comes back, not of what is sent.
    assert.equal(stub.calls(AUTHORIZE_PATH)[0]?.headers['x-client-secret'], TEST_ACCOUNT.clientSecret);
    await client.close();
  });

  it('an account number the provider echoes (getBeneId, directTransfer, requestBatchTransfer) is scrubbed, letters in it included', async () => {
    const { lines, sink } = capture();
    const client = testClient(
      stub,
      {},
      { logger: createLogger({ level: 'debug', name: 'pc-test', destination: sink }) },
    );
    // Letters split its digit runs: digit masking alone would leave it whole.
    const bankAccount = 'AB1234CD5678EF';
    stub.on('/payout/v1/getBeneId', {
      status: 520,
      body: { status: 'ERROR', subCode: 520, message: `no beneficiary for ${bankAccount}` },
    });
    stub.on('/payout/v1.2/directTransfer', {
      status: 520,
      body: { status: 'ERROR', subCode: 520, message: `cannot credit ${bankAccount}` },
    });
    stub.on('/payout/v1/requestBatchTransfer', {
      status: 520,
      body: { status: 'ERROR', subCode: 520, message: `entry 1: ${bankAccount} refused` },
    });
    const r = [
      await client.call('getBeneId', { bankAccount, ifsc: 'YESB0000262' }),
      await client.call('directTransfer', {
        transferId: 'd1',
        amount: '10.00',
        beneDetails: { name: 'A Person', phone: '9876543210', bankAccount, ifsc: 'YESB0000262' },
      }),
      await client.call('requestBatchTransfer', {
        batchTransferId: 'b1',
        batchFormat: 'BANK_ACCOUNT',
        batch: [
          {
            transferId: 'e1',
            amount: '1.00',
            name: 'A Person',
            phone: '9876543210',
            bankAccount,
            ifsc: 'YESB0000262',
          },
        ],
      }),
    ];
    await new Promise((res) => setImmediate(res));
    assert.deepEqual(
      r.map((x) => x.diagnostics.sent),
      [true, true, true],
      'each call reached the provider (a local refusal would prove nothing)',
    );
    const shown = JSON.stringify(r) + lines.join('');
    assert.ok(!shown.includes(bankAccount), `${bankAccount} leaked: ${shown}`);
    await client.close();
  });

  it('registers prom-client metrics labelled by endpoint template and outcome only', async () => {
    const registry = new Registry();
    const client = testClient(stub, {}, { registry });
    stub.on('/payout/v1.2/getTransferStatus', {
      body: {
        status: 'SUCCESS',
        subCode: 200,
        message: 'ok',
        data: { transfer: { transferId: 'secret_tr_99', status: 'PENDING' } },
      },
    });
    await client.call('getTransferStatus', { transferId: 'secret_tr_99' });
    const text = await registry.metrics();
    assert.match(
      text,
      /payouts_provider_request_duration_seconds_count\{endpoint="GET \/payout\/v1.2\/getTransferStatus",outcome="pending"\} 1/,
    );
    assert.match(text, /payouts_provider_authorize_total\{result="success"\} 1/);
    assert.match(text, /payouts_provider_rate_limit_wait_seconds/);
    assert.ok(!text.includes('secret_tr_99'));
    await client.close();
  });
});
