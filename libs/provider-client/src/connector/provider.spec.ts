import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ProviderResult } from '../core/outcome.js';
import { type CallOptions, type ProviderClient } from '../provider-client.js';
import { WEBHOOK_EVENT_TYPES, webhookEventLabel, webhookMeaning } from '../webhooks/webhook-meaning.js';
import { Provider } from './provider.factory.js';
import { type ProviderAccounts } from './provider.port.js';

interface Sent {
  readonly name: string;
  readonly request: unknown;
  readonly opts: CallOptions;
}

/** A client that records each call by endpoint name and answers it with `answer(name)`. */
function recording(answer: (name: string) => ProviderResult<unknown>): {
  client: ProviderClient;
  sent: Sent[];
} {
  const sent: Sent[] = [];
  const call = (name: string, request: unknown, opts: CallOptions) => {
    sent.push({ name, request, opts });
    return Promise.resolve(answer(name));
  };
  return { client: { call } as unknown as ProviderClient, sent };
}

const diagnostics = (name: string, wire: { code?: string; subCode?: string } = {}) => ({
  endpoint: name,
  requestId: 'r',
  sent: true,
  attempts: 1,
  durationMs: 1,
  ...wire,
  evidence: wire.subCode ?? wire.code,
});

const provider = (client: ProviderClient, generation: 'v1' | 'v2') =>
  new Provider(client, () => generation, {} as ProviderAccounts);

describe('the provider port (issue 31)', () => {
  it('queries.sdkToken: the service names the video-KYC request; the connector builds the provider metadata', async () => {
    const { client, sent } = recording((n) => ({
      outcome: 'success',
      data: { accessToken: 't', expiresAt: 'x' },
      diagnostics: diagnostics(n),
    }));
    await provider(client, 'v2').queries.sdkToken(
      {
        appId: 'app',
        vkycRequestId: 'vk1',
        authenticatedUser: { identifierType: 'PHONE', identifierValue: 1 },
      },
      { accountId: 'a', requestId: 'q' },
    );
    assert.deepEqual(sent, [
      {
        name: 'createSdkToken',
        request: {
          appId: 'app',
          product: 'VKYC',
          metadata: { vkyc_request_id: 'vk1' },
          authenticatedUser: { identifierType: 'PHONE', identifierValue: 1 },
        },
        opts: { accountId: 'a', requestId: 'q' },
      },
    ]);
  });

  it('queries.balance: Get Balance on the account, both balances with 2 places (never a float), with the time read', async () => {
    const { client, sent } = recording((n) => ({
      outcome: 'success',
      data: { balance: '9007199254740.5', availableBalance: '-12' },
      diagnostics: diagnostics(n, { subCode: '200' }),
    }));
    const before = Date.now();
    const r = await provider(client, 'v2').queries.balance('acc', 'q1');
    assert.deepEqual(sent, [
      { name: 'getBalance', request: {}, opts: { accountId: 'acc', requestId: 'q1' } },
    ]);
    assert.equal(r.outcome, 'success');
    if (r.outcome !== 'success') return;
    assert.equal(r.data.ledger, '9007199254740.50', 'past 2^53 cents would round through a float');
    assert.equal(r.data.available, '-12.00');
    assert.ok(r.data.readAt.getTime() >= before && r.data.readAt.getTime() <= Date.now());
  });

  it('queries.balance: a failed read stays a result, with no balance', async () => {
    const { client } = recording((n) => ({
      outcome: 'unknown',
      reason: 'timeout',
      diagnostics: diagnostics(n),
    }));
    const r = await provider(client, 'v1').queries.balance('acc');
    assert.equal(r.outcome, 'unknown');
    assert.equal('data' in r ? r.data : undefined, undefined);
  });

  it('beneficiaries.create: v2 saying the account is registered under another id is the port flag, not a code', async () => {
    const refusal = (code: string) => (n: string) =>
      ({
        outcome: 'failed',
        kind: 'duplicate',
        reason: 'exists',
        diagnostics: diagnostics(n, { code }),
      }) as const;
    const details = { beneId: 'b1', name: 'A', bankAccount: '1234567890', ifsc: 'YESB0000262' };
    const sameAccount = await provider(
      recording(refusal('beneficiary_already_exists')).client,
      'v2',
    ).beneficiaries.create('a', details);
    assert.equal(sameAccount.sameAccountExists, true);
    assert.equal(sameAccount.result.diagnostics.evidence, 'beneficiary_already_exists');
    const sameId = await provider(
      recording(refusal('beneficiary_id_already_exists')).client,
      'v2',
    ).beneficiaries.create('a', details);
    assert.equal(sameId.sameAccountExists, undefined);
    const v1 = recording((n) => ({
      outcome: 'failed',
      kind: 'duplicate',
      reason: 'exists',
      diagnostics: diagnostics(n, { subCode: '409' }),
    }));
    const legacy = await provider(v1.client, 'v1').beneficiaries.create('a', details);
    assert.equal(legacy.sameAccountExists, undefined);
    assert.deepEqual(
      v1.sent.map((s) => s.name),
      ['addBeneficiary'],
    );
  });

  it('codes: the connector gives the code to keep, one value, whichever field the generation sends it in', async () => {
    const v1 = recording((n) => ({
      outcome: 'success',
      data: {},
      diagnostics: diagnostics(n, { subCode: '200' }),
    }));
    const sent = await provider(v1.client, 'v1').payouts.v1.submitPayout(
      {
        kind: 'internal_transfer',
        transferId: 't1',
        amount: '10.00',
        request: { amount: '10.00', transferId: 't1', rechargeAccount: 'r1' },
      },
      {},
    );
    assert.equal(sent.statusCode, '200');
    assert.equal(sent.result.diagnostics.evidence, '200');
    const refused = (wire: { code?: string; subCode?: string }) => (n: string) =>
      ({ outcome: 'failed', kind: 'rejected', reason: 'no', diagnostics: diagnostics(n, wire) }) as const;
    const batch = { batchTransferId: 'b1', batchFormat: 'BANK_ACCOUNT', entries: [] } as const;
    const v1Batch = await provider(
      recording(refused({ subCode: '400' })).client,
      'v1',
    ).payouts.v1.submitBatch(batch, {});
    assert.equal(v1Batch.refusalCode, '400');
    // A refused v2 batch keeps no code on the batch, as before issue 31 (only v1's was read).
    const v2Batch = await provider(
      recording(refused({ code: 'batch_transfer_id_invalid' })).client,
      'v2',
    ).payouts.v2.submitBatch(batch, {});
    assert.equal(v2Batch.refusalCode, undefined);
  });

  it('webhooks: a kept webhook means a state, a batch, a notice or nothing, in the service terms', () => {
    assert.deepEqual(webhookMeaning('TRANSFER_SUCCESS', { status: 'SUCCESS', statusCode: 'COMPLETED' }), {
      about: 'transfer',
      announces: 'SUCCESS',
      statusAgrees: true,
      evidence: 'COMPLETED',
    });
    assert.deepEqual(webhookMeaning('TRANSFER_FAILED', { status: 'SUCCESS' }), {
      about: 'transfer',
      announces: 'FAILED',
      statusAgrees: false,
      evidence: 'SUCCESS',
    });
    assert.deepEqual(webhookMeaning('TRANSFER_ACKNOWLEDGED', {}), {
      about: 'transfer',
      announces: null,
      statusAgrees: true,
    });
    assert.deepEqual(webhookMeaning('BULK_TRANSFER_REJECTED', {}), { about: 'batch' });
    assert.deepEqual(webhookMeaning('LOW_BALANCE_ALERT', {}), {
      about: 'notice',
      notice: 'low_balance',
      balance: 'low',
    });
    assert.deepEqual(webhookMeaning('BENEFICIARY_INCIDENT', {}), {
      about: 'notice',
      notice: 'beneficiary_incident',
    });
    assert.deepEqual(webhookMeaning('CREDIT_CONFIRMATION', {}), { about: 'other', balance: 'credited' });
    assert.deepEqual(webhookMeaning('PROVIDER_SUB_STATE', {}), { about: 'other' });
  });

  it('webhooks: the metric labels are the connector list, as the pipeline counted them before issue 31', () => {
    assert.deepEqual([...WEBHOOK_EVENT_TYPES].sort(), [
      'BENEFICIARY_INCIDENT',
      'BULK_TRANSFER_REJECTED',
      'CREDIT_CONFIRMATION',
      'LOW_BALANCE_ALERT',
      'TRANSFER_ACKNOWLEDGED',
      'TRANSFER_FAILED',
      'TRANSFER_REJECTED',
      'TRANSFER_REVERSED',
      'TRANSFER_SUCCESS',
    ]);
    assert.equal(webhookEventLabel('TRANSFER_SUCCESS'), 'TRANSFER_SUCCESS');
    assert.equal(webhookEventLabel('PROVIDER_SUB_STATE'), 'other');
  });
});
