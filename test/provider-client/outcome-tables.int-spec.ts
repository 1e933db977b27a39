import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  legacyTransferStatusOutcomes,
  v2TransferStatusOutcomes,
  type LegacyOutcomeRow,
  type ProviderClient,
} from '#provider-client';
import { AUTHORIZE_PATH, StubProvider } from './support/stub-provider.js';
import { testClient } from './support/test-client.js';
import {
  LEGACY_CASES,
  legacyStatusData,
  V2_CASES,
  v2Transfer,
  type LegacyCase,
} from './support/endpoint-cases.js';

/** How many times the endpoint is hit for a row's class: auth-refresh retries once, retry-safe up to maxAttempts. */
function expectedCalls(outcome: string, bearer: boolean): number {
  if (outcome === 'retry-safe') return 3;
  if (outcome === 'auth-refresh' && bearer) return 2;
  return 1;
}

function legacyBody(c: LegacyCase, row: LegacyOutcomeRow, i: number): Record<string, unknown> {
  // Alternate number / string subCodes and upper / lower case statuses: both are seen.
  const code = i % 2 === 0 ? String(row.subCode) : row.subCode;
  const status = i % 2 === 0 ? row.status : row.status.toLowerCase();
  const codeField = row.status === 'SUCCESS' && c.successCodeField ? c.successCodeField : 'subCode';
  const body: Record<string, unknown> = { status, [codeField]: code, message: row.message ?? row.meaning };
  if (row.status !== 'ERROR' && c.data !== undefined) body['data'] = c.data;
  return body;
}

describe('outcome tables over real HTTP', () => {
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
          it(`${row.status} ${row.subCode} "${row.message ?? row.meaning}" with HTTP ${http} -> ${row.outcome}`, async () => {
            stub.on(c.path, { status: http, body: legacyBody(c, row, i) });
            const r = await c.call(client);
            // HTTP 429 is rate limiting whatever the body says.
            const expected = http === 429 ? 'retry-safe' : row.outcome;
            assert.equal(r.outcome, expected, JSON.stringify(r));
            if (r.outcome === 'failed') assert.equal(r.kind, row.kind ?? 'rejected');
            assert.equal(stub.count(c.path), expectedCalls(expected, c.bearer));
            if (c.bearer && expected === 'auth-refresh') {
              // Re-authorized once between the two sends, and the retry carried the new token.
              const [first, second] = stub.calls(c.path).map((x) => x.headers.authorization);
              assert.notEqual(first, second);
              assert.ok(stub.count(AUTHORIZE_PATH) <= 2);
            }
            if (expected !== 'retry-safe') assert.equal(r.diagnostics.subCode, String(row.subCode));
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
    for (const [status, o] of Object.entries(legacyTransferStatusOutcomes)) {
      it(`${status} -> ${o.outcome}`, async () => {
        stub.on('/payout/v1.2/getTransferStatus', {
          body: {
            status: 'SUCCESS',
            subCode: '200',
            message: 'ok',
            data: legacyStatusData(status.toLowerCase()),
          },
        });
        const r = await client.getTransferStatus({ referenceId: '55' });
        assert.equal(r.outcome, o.outcome);
        if (r.outcome === 'failed') assert.equal(r.kind, o.kind);
        assert.equal(stub.calls('/payout/v1.2/getTransferStatus')[0]?.query.get('referenceId'), '55');
      });
    }
    it('an unlisted status is unknown, with the data kept', async () => {
      stub.on('/payout/v1.2/getTransferStatus', {
        body: { status: 'SUCCESS', subCode: 200, message: 'ok', data: legacyStatusData('ON_HOLD') },
      });
      const r = await client.getTransferStatus({ transferId: 'tr_1' });
      assert.equal(r.outcome, 'unknown');
      assert.equal(r.outcome === 'unknown' ? r.data?.status : undefined, 'ON_HOLD');
    });
  });

  for (const c of V2_CASES) {
    describe(`${c.name} (${c.table.length} rows)`, () => {
      for (const row of c.table) {
        it(`HTTP ${row.http} ${row.code ?? row.message ?? '(any)'} -> ${row.outcome}`, async () => {
          stub.on(c.path, {
            status: row.http,
            body: {
              type: 'invalid_request_error',
              // A batch names the refused entry by its index; the table says `[i]`.
              code: row.code?.replace('[i]', '[2]') ?? 'some_code',
              message: row.message ?? row.meaning,
            },
          });
          const r = await c.call(client);
          assert.equal(r.outcome, row.outcome, JSON.stringify(r));
          if (r.outcome === 'failed') assert.equal(r.kind, row.kind ?? 'rejected');
          assert.equal(stub.count(c.path), expectedCalls(row.outcome, false));
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
    for (const [status, o] of Object.entries(v2TransferStatusOutcomes)) {
      it(`${status} -> ${o.outcome}`, async () => {
        stub.on('/payout/transfers', { body: v2Transfer(status.toLowerCase(), 'X') });
        const r = await client.getTransferStatusV2({ svcTransferId: '98765' });
        assert.equal(r.outcome, o.outcome);
        assert.equal(stub.calls('/payout/transfers')[0]?.query.get('cf_transfer_id'), '98765');
      });
    }
    it('an unlisted status is unknown with the raw status and code kept', async () => {
      stub.on('/payout/transfers', { body: v2Transfer('PARKED', 'NEW_CODE') });
      const r = await client.getTransferStatusV2({ transferId: 'tr_v2_1' });
      assert.equal(r.outcome, 'unknown');
      assert.equal(r.diagnostics.status, 'PARKED');
      assert.equal(r.diagnostics.code, 'NEW_CODE');
    });
  });
});
