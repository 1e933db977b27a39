import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  addBeneficiaryAdapter,
  createBeneficiaryV2Adapter,
  createProviderClient,
  deleteBeneficiaryV2Adapter,
  getBeneficiaryAdapter,
  getBeneficiaryV2Adapter,
  removeBeneficiaryAdapter,
  type EndpointAdapter,
  type ProviderClient,
} from '#provider-client/testing';
import {
  ADD_BENEFICIARY,
  GET_BENEFICIARY,
  legacyHttpStatus,
  REMOVE_BENEFICIARY,
  startSandbox,
  V2_COMMON,
  V2_CREATE_BENEFICIARY,
  V2_GET_BENEFICIARY,
  V2_REMOVE_BENEFICIARY,
  type LegacyRow,
  type LegacyTable,
  type RunningSandbox,
  type V2Row,
  type V2Table,
} from '#sandbox';
import { v1Bene, v2Bene } from './support/beneficiary-cases.js';

type AnyAdapter = EndpointAdapter<never, unknown>;

/**
 * The sandbox's beneficiary rows, each read by the matching client adapter: no answer the sandbox
 * can give is "undocumented" (unknown) to the client, and each lands in the class its meaning needs.
 */
const LEGACY: ReadonlyArray<[AnyAdapter, LegacyTable]> = [
  [addBeneficiaryAdapter, ADD_BENEFICIARY],
  [getBeneficiaryAdapter, GET_BENEFICIARY],
  [removeBeneficiaryAdapter, REMOVE_BENEFICIARY],
];
const V2: ReadonlyArray<[AnyAdapter, V2Table]> = [
  [createBeneficiaryV2Adapter, { ...V2_CREATE_BENEFICIARY, ...V2_COMMON }],
  [getBeneficiaryV2Adapter, { ...V2_GET_BENEFICIARY, ...V2_COMMON }],
  [deleteBeneficiaryV2Adapter, { ...V2_REMOVE_BENEFICIARY, ...V2_COMMON }],
];

const answer = (statusCode: number, body: unknown) => ({
  statusCode,
  headers: {},
  body: JSON.stringify(body),
});

function expectedClass(code: string, message: string, http: number): string {
  if (/already.exist/i.test(message) || /already_exists/.test(code)) return 'duplicate';
  if (http === 429) return 'retry-safe';
  if (/token is not valid|token missing/i.test(message)) return 'auth-refresh';
  if (http === 401 || /whitelisted|not enabled/i.test(message)) return 'fatal-config';
  if (http >= 500) return 'unknown';
  if (http === 404 || code === '404') return 'not-found';
  return 'refused';
}

function classOf(r: { outcome: string; kind?: string }): string {
  if (r.outcome !== 'failed') return r.outcome;
  if (r.kind === 'duplicate' || r.kind === 'not-found') return r.kind;
  return 'refused';
}

describe('beneficiary adapters read every answer of the sandbox tables', () => {
  for (const [adapter, table] of LEGACY) {
    for (const [key, row] of Object.entries<LegacyRow>(table)) {
      if (row.status !== 'ERROR') continue;
      it(`${adapter.name}: ${key} (${row.subCode} ${row.message})`, () => {
        const http = legacyHttpStatus(row);
        const c = adapter.classify(answer(http, { ...row }));
        assert.equal(classOf(c as never), expectedClass(row.subCode, row.message, http), JSON.stringify(c));
      });
    }
  }
  for (const [adapter, table] of V2) {
    for (const [key, row] of Object.entries<V2Row>(table)) {
      it(`${adapter.name}: ${key} (${row.http} ${row.code})`, () => {
        const c = adapter.classify(
          answer(row.http, { type: row.type, code: row.code, message: row.message }),
        );
        assert.equal(classOf(c as never), expectedClass(row.code, row.message, row.http), JSON.stringify(c));
      });
    }
  }
});

describe('beneficiary adapters against the sandbox over HTTP', () => {
  let sandbox: RunningSandbox;
  let client: ProviderClient;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    const t = { connectMs: 1000, headersMs: 5000, bodyMs: 5000 };
    client = createProviderClient({
      hosts: { baseUrl: sandbox.url, payoutUrl: sandbox.url },
      accounts: [{ accountId: 'a1', clientId: 'sandbox_client_id', clientSecret: 'sandbox_client_secret' }],
      defaultAccountId: 'a1',
      apiVersion: '2024-01-01',
      timeouts: { default: t, transfer: t },
      tokenRefreshMarginSeconds: 60,
      ratePerMinute: { transfer: 6000, status: 6000, authorize: 6000, balance: 6000, default: 6000 },
      maxAttempts: 1,
      retryBaseMs: 5,
      retryMaxMs: 20,
      maxRateLimitWaitMs: 1000,
    });
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });

  it('v1: add, get, add again (duplicate), remove, get (not found), remove again (not found)', async () => {
    assert.equal((await client.call('addBeneficiary', v1Bene)).outcome, 'success');
    const got = await client.call('getBeneficiary', { beneId: v1Bene.beneId });
    assert.equal(got.outcome, 'success', JSON.stringify(got));
    assert.equal(got.outcome === 'success' ? got.data.bankAccount : '', v1Bene.bankAccount);
    assert.equal(got.outcome === 'success' ? got.data.name : '', v1Bene.name);
    const again = await client.call('addBeneficiary', v1Bene);
    assert.equal(again.outcome === 'failed' ? again.kind : again.outcome, 'duplicate');
    assert.equal((await client.call('removeBeneficiary', { beneId: v1Bene.beneId })).outcome, 'success');
    const gone = await client.call('getBeneficiary', { beneId: v1Bene.beneId });
    assert.equal(gone.outcome === 'failed' ? gone.kind : gone.outcome, 'not-found');
    const twice = await client.call('removeBeneficiary', { beneId: v1Bene.beneId });
    assert.equal(twice.outcome === 'failed' ? twice.kind : twice.outcome, 'not-found');
  });

  it('v2: create (201), get by id and by account + IFSC, both 409s, delete (DELETED), delete again', async () => {
    const made = await client.call('createBeneficiaryV2', v2Bene);
    assert.equal(made.outcome, 'success', JSON.stringify(made));
    assert.equal(made.diagnostics.httpStatus, 201);
    assert.equal(made.outcome === 'success' ? made.data.status : '', 'VERIFIED');
    const byId = await client.call('getBeneficiaryV2', { beneId: v2Bene.beneId });
    assert.equal(byId.outcome === 'success' ? byId.data.ifsc : '', v2Bene.ifsc);
    const byAccount = await client.call('getBeneficiaryV2', {
      bankAccount: v2Bene.bankAccount ?? '',
      ifsc: 'YESB0000262',
    });
    assert.equal(byAccount.outcome === 'success' ? byAccount.data.beneId : '', v2Bene.beneId);
    const sameId = await client.call('createBeneficiaryV2', v2Bene);
    assert.equal(sameId.outcome === 'failed' ? sameId.kind : '', 'duplicate');
    assert.equal(sameId.diagnostics.code, 'beneficiary_id_already_exists');
    const sameAccount = await client.call('createBeneficiaryV2', { ...v2Bene, beneId: 'other_1' });
    assert.equal(sameAccount.outcome === 'failed' ? sameAccount.kind : '', 'duplicate');
    assert.equal(sameAccount.diagnostics.code, 'beneficiary_already_exists');
    const del = await client.call('deleteBeneficiaryV2', { beneId: v2Bene.beneId });
    assert.equal(del.outcome === 'success' ? del.data.status : del.outcome, 'DELETED');
    const again = await client.call('deleteBeneficiaryV2', { beneId: v2Bene.beneId });
    assert.equal(again.outcome === 'failed' ? again.kind : again.outcome, 'not-found');
    const unknownAccount = await client.call('getBeneficiaryV2', {
      bankAccount: '1234567890',
      ifsc: 'YESB0000262',
    });
    assert.equal(unknownAccount.outcome === 'failed' ? unknownAccount.kind : '', 'not-found');
  });

  it('one store: a beneficiary added on v1 is found and deleted on v2', async () => {
    const b = { ...v1Bene, beneId: 'shared7', bankAccount: '00112233445' };
    assert.equal((await client.call('addBeneficiary', b)).outcome, 'success');
    const got = await client.call('getBeneficiaryV2', { beneId: 'shared7' });
    assert.equal(got.outcome === 'success' ? got.data.bankAccount : got.outcome, '00112233445');
    assert.equal((await client.call('deleteBeneficiaryV2', { beneId: 'shared7' })).outcome, 'success');
    const v1 = await client.call('getBeneficiary', { beneId: 'shared7' });
    assert.equal(v1.outcome === 'failed' ? v1.kind : v1.outcome, 'not-found');
  });
});
