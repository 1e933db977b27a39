import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type LegacyOutcomeRow, type ProviderClient, type ProviderResult } from '#provider-client/testing';
import { AUTHORIZE_PATH, StubProvider } from './support/stub-provider.js';
import { testClient } from './support/test-client.js';
import {
  LEGACY_CASES,
  legacyStatusData,
  V2_CASES,
  v2Transfer,
  type LegacyCase,
  type V2Case,
} from './support/endpoint-cases.js';
import {
  LEGACY_MEANINGS,
  legacyMeaning,
  TRANSFER_STATUS_MEANINGS,
  V2_MEANINGS,
  v2Meaning,
  type LegacyMeaning,
} from './support/interface-meanings.js';

/** The outcome class, `failed/<kind>` for a failure: one string to compare with a meaning. */
function verdictOf(r: ProviderResult<unknown>): string {
  return r.outcome === 'failed' ? `failed/${r.kind}${r.shortOfFunds ? '+short-of-funds' : ''}` : r.outcome;
}

const subStateOf = (r: ProviderResult<unknown>) => (r.outcome === 'pending' ? r.subState : undefined);

/** How many times the endpoint is hit for a row's class: auth-refresh retries once, retry-safe up to maxAttempts. */
function expectedCalls(outcome: string, bearer: boolean): number {
  if (outcome === 'retry-safe') return 3;
  if (outcome === 'auth-refresh' && bearer) return 2;
  return 1;
}

function legacyBody(
  c: LegacyCase,
  row: Pick<LegacyOutcomeRow, 'status' | 'subCode' | 'message' | 'meaning'>,
  i: number,
): Record<string, unknown> {
  // Alternate number / string subCodes and upper / lower case statuses: both are seen.
  const code = i % 2 === 0 ? String(row.subCode) : row.subCode;
  const status = i % 2 === 0 ? row.status : row.status.toLowerCase();
  const codeField = row.status === 'SUCCESS' && c.successCodeField ? c.successCodeField : 'subCode';
  const body: Record<string, unknown> = { status, [codeField]: code, message: row.message ?? row.meaning };
  if (row.status !== 'ERROR' && c.data !== undefined) body['data'] = c.data;
  return body;
}

describe('outcome tables over real HTTP', () => {
  /** Sends one legacy answer and compares the client's verdict with the document's meaning. */
  async function expectLegacy(
    c: LegacyCase,
    body: Record<string, unknown>,
    http: number,
    meaning: LegacyMeaning,
  ): Promise<void> {
    stub.reset();
    stub.on(c.path, { status: http, body });
    const r = await c.call(client);
    // HTTP 429 is rate limiting whatever the body says.
    const expected = http === 429 ? 'retry-safe' : meaning.verdict;
    assert.equal(verdictOf(r), expected, JSON.stringify(r));
    if (expected === 'pending') assert.equal(subStateOf(r), meaning.subState, 'the wait it names');
    assert.equal(stub.count(c.path), expectedCalls(expected, c.bearer));
    if (c.bearer && expected === 'auth-refresh') {
      // Re-authorized once between the two sends, and the retry carried the new token.
      const [first, second] = stub.calls(c.path).map((x) => x.headers.authorization);
      assert.notEqual(first, second);
      assert.ok(stub.count(AUTHORIZE_PATH) <= 2);
    }
    const codeField =
      String(body['status']).toUpperCase() === 'SUCCESS' && c.successCodeField
        ? c.successCodeField
        : 'subCode';
    if (expected !== 'retry-safe') assert.equal(r.diagnostics.subCode, String(body[codeField]));
  }

  /** Sends one v2 error and compares the client's verdict with the document's meaning. */
  async function expectV2(c: V2Case, http: number, code: string, message: string, verdict: string) {
    stub.reset();
    stub.on(c.path, { status: http, body: { type: 'invalid_request_error', code, message } });
    const r = await c.call(client);
    assert.equal(verdictOf(r), verdict, JSON.stringify(r));
    assert.equal(stub.count(c.path), expectedCalls(verdict, false));
  }

  let stub: StubProvider;
  let client: ProviderClient;
  before(async () => {
    stub = await StubProvider.start();
    client = testClient(stub);
  });
  after(async () => {
    await client.close();
    await stub.close();
  });
  beforeEach(() => stub.reset());

  for (const c of LEGACY_CASES) {
    describe(`${c.name} (${c.table.length} rows)`, () => {
      c.table.forEach((row, i) => {
        const httpVariants = row.http !== undefined && row.http !== 200 ? [row.http, 200] : [200];
        for (const http of httpVariants) {
          // The expected meaning is the document's (support/interface-meanings.ts), never the row's own.
          const body = legacyBody(c, row, i);
          const meaning = legacyMeaning(c.name, row.status, row.subCode, String(body['message']));
          it(`${row.status} ${row.subCode} "${row.message ?? row.meaning}" with HTTP ${http} -> ${meaning?.verdict ?? '(no meaning written)'}`, async () => {
            assert.ok(
              meaning,
              `no meaning written from the document for ${c.name} ${row.status} ${row.subCode}`,
            );
            await expectLegacy(c, body, http, meaning);
          });
        }
      });
      it('has its meanings written from the document', () => assert.ok(LEGACY_MEANINGS[c.name]?.length));
      // Every meaning written from the document, sent as its own answer: a row the client's table
      // lacks, or classifies otherwise, fails here.
      (LEGACY_MEANINGS[c.name] ?? []).forEach((m, i) => {
        const variants = m.subCode >= 400 && m.subCode < 600 ? [200, m.subCode] : [200];
        for (const http of variants) {
          it(`document: ${m.status} ${m.subCode} "${m.message ?? m.doc}" with HTTP ${http} -> ${m.verdict}`, async () => {
            const body = legacyBody(c, { ...m, meaning: m.doc }, i);
            await expectLegacy(c, body, http, m);
          });
        }
      });
      it('an undocumented subCode is unknown, with the raw code kept', async () => {
        stub.on(c.path, { status: 200, body: { status: 'ERROR', subCode: 599, message: 'new thing' } });
        const r = await c.call(client);
        assert.equal(r.outcome, 'unknown');
        assert.equal(r.diagnostics.subCode, '599');
        assert.equal(stub.count(c.path), 1);
      });
      // A repeat reached the provider, which holds the id: whatever code it comes with, the
      // answer means "check the status", never "failed".
      for (const subCode of [400, 409, 412, 422, 520]) {
        it(`"already exists" with subCode ${subCode} is a duplicate`, async () => {
          stub.on(c.path, {
            status: subCode,
            body: { status: 'ERROR', subCode, message: 'Transfer Id already exists' },
          });
          const r = await c.call(client);
          assert.equal(r.outcome, 'failed', JSON.stringify(r));
          assert.equal(r.outcome === 'failed' ? r.kind : undefined, 'duplicate');
          assert.equal(stub.count(c.path), 1);
        });
      }
      // The same in other words (issue 21): "Duplicate transferId" on a 400 used to fall into the
      // catch-all refusal row and become FAILED while the provider held the id.
      for (const message of ['Duplicate transferId', 'DUPLICATE_TRANSFER_ID']) {
        for (const subCode of [400, 409]) {
          it(`"${message}" with subCode ${subCode} is a duplicate`, async () => {
            stub.on(c.path, { status: subCode, body: { status: 'ERROR', subCode, message } });
            const r = await c.call(client);
            assert.equal(r.outcome === 'failed' ? r.kind : r.outcome, 'duplicate', JSON.stringify(r));
          });
        }
      }
      it('a body that does not parse is unknown', async () => {
        stub.on(c.path, { status: 502, body: '<html>bad gateway</html>' });
        const r = await c.call(client);
        assert.equal(r.outcome, 'unknown');
        assert.equal(r.diagnostics.httpStatus, 502);
      });
    });
  }

  describe('getTransferStatus: the transfer status decides the outcome', () => {
    for (const m of TRANSFER_STATUS_MEANINGS.filter((x) => x.code === undefined)) {
      it(`${m.status} -> ${m.verdict}${m.subState ? ` (${m.subState})` : ''}`, async () => {
        stub.on('/payout/v1.2/getTransferStatus', {
          body: {
            status: 'SUCCESS',
            subCode: '200',
            message: 'ok',
            data: legacyStatusData(m.status.toLowerCase()),
          },
        });
        const r = await client.call('getTransferStatus', { referenceId: '55' });
        assert.equal(verdictOf(r), m.verdict);
        assert.equal(subStateOf(r), m.subState);
        assert.equal(stub.calls('/payout/v1.2/getTransferStatus')[0]?.query.get('referenceId'), '55');
      });
    }
    it('an unlisted status is unknown, with the data kept', async () => {
      stub.on('/payout/v1.2/getTransferStatus', {
        body: { status: 'SUCCESS', subCode: 200, message: 'ok', data: legacyStatusData('ON_HOLD') },
      });
      const r = await client.call('getTransferStatus', { transferId: 'tr_1' });
      assert.equal(r.outcome, 'unknown');
      assert.equal(r.outcome === 'unknown' ? r.data?.status : undefined, 'ON_HOLD');
    });
  });

  for (const c of V2_CASES) {
    describe(`${c.name} (${c.table.length} rows)`, () => {
      for (const row of c.table) {
        const code = row.code?.replace('[i]', '[2]') ?? 'some_code';
        const message = row.message ?? row.meaning;
        // The expected meaning is the document's (support/interface-meanings.ts), never the row's own.
        const meaning = v2Meaning(c.name, row.http, code, message);
        it(`HTTP ${row.http} ${row.code ?? row.message ?? '(any)'} -> ${meaning?.verdict ?? '(no meaning written)'}`, async () => {
          assert.ok(meaning, `no meaning written from the document for ${c.name} ${row.http} ${code}`);
          await expectV2(c, row.http, code, message, meaning.verdict);
        });
      }
      it('has its meanings written from the document', () => assert.ok(V2_MEANINGS[c.name]?.length));
      for (const m of V2_MEANINGS[c.name] ?? []) {
        it(`document: HTTP ${m.http} ${m.code ?? m.message ?? '(any)'} -> ${m.verdict}`, async () => {
          await expectV2(
            c,
            m.http,
            m.code?.replace('[i]', '[3]') ?? 'other_code',
            m.message ?? m.doc,
            m.verdict,
          );
        });
      }
      it('an "already exists" error, whatever its code, is a duplicate', async () => {
        stub.on(c.path, {
          status: 400,
          body: { type: 'invalid_request_error', code: 'some_code', message: 'transfer_id already exists' },
        });
        const r = await c.call(client);
        assert.equal(r.outcome === 'failed' ? r.kind : r.outcome, 'duplicate', JSON.stringify(r));
      });
      it('a "duplicate" error, in message or code, is a duplicate', async () => {
        for (const body of [
          { type: 'invalid_request_error', code: 'some_code', message: 'Duplicate transfer_id' },
          { type: 'invalid_request_error', code: 'duplicate_transfer_id', message: 'm' },
        ]) {
          stub.on(c.path, { status: 409, body });
          const r = await c.call(client);
          assert.equal(r.outcome === 'failed' ? r.kind : r.outcome, 'duplicate', JSON.stringify(r));
        }
      });
      it('a 200 answer is decoded', async () => {
        stub.on(c.path, { body: c.okBody });
        const r = await c.call(client);
        assert.ok(r.outcome === 'success' || r.outcome === 'pending', JSON.stringify(r));
        const h = stub.calls(c.path)[0]?.headers;
        assert.equal(h?.['x-client-id'], 'test_client_id');
        assert.equal(h?.['x-api-version'], '2024-01-01');
        assert.equal(stub.count(AUTHORIZE_PATH), 0);
      });
      it('an undocumented error code is unknown, with the raw code kept', async () => {
        stub.on(c.path, { status: 409, body: { type: 'x', code: 'brand_new_code', message: 'm' } });
        const r = await c.call(client);
        assert.equal(r.outcome, 'unknown');
        assert.equal(r.diagnostics.code, 'brand_new_code');
      });
    });
  }

  describe('v2 transfer status table', () => {
    for (const m of TRANSFER_STATUS_MEANINGS) {
      it(`${m.status}/${m.code ?? '-'} -> ${m.verdict}${m.subState ? ` (${m.subState})` : ''}`, async () => {
        stub.on('/payout/transfers', { body: v2Transfer(m.status.toLowerCase(), m.code ?? 'X') });
        const r = await client.call('getTransferStatusV2', { svcTransferId: '98765' });
        assert.equal(verdictOf(r), m.verdict);
        assert.equal(subStateOf(r), m.subState);
        assert.equal(stub.calls('/payout/transfers')[0]?.query.get('cf_transfer_id'), '98765');
      });
    }
    it('an unlisted status is unknown with the raw status and code kept', async () => {
      stub.on('/payout/transfers', { body: v2Transfer('PARKED', 'NEW_CODE') });
      const r = await client.call('getTransferStatusV2', { transferId: 'tr_v2_1' });
      assert.equal(r.outcome, 'unknown');
      assert.equal(r.diagnostics.status, 'PARKED');
      assert.equal(r.diagnostics.code, 'NEW_CODE');
    });
  });
});
