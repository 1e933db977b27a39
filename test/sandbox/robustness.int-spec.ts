import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { COMMON, V2_COMMON } from '#sandbox';
import { assertRow, assertV2Row, Harness } from './harness.js';

/** Bad input never crashes the sandbox; every kind gets the provider-style answer. */
describe('sandbox robustness', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(() => h.close());

  const legacyPaths = [
    '/payout/v1.2/directTransfer',
    '/payout/v1.2/requestTransfer',
    '/payout/v1/cardpay',
    '/payout/v1/requestBatchTransfer',
  ];

  for (const path of legacyPaths) {
    it(`legacy ${path}: malformed JSON, unknown fields, non-objects, huge bodies`, async () => {
      assertRow(await h.call('POST', path, undefined, { raw: '{"a":' }), COMMON.malformedJson);
      assertRow(await h.call('POST', path, { surprise: 1 }), COMMON.unknownField);
      assertRow(await h.call('POST', path, [1]), COMMON.invalidBody);
      assertRow(await h.call('POST', path, 'text'), COMMON.invalidBody);
      assertRow(await h.call('POST', path, undefined, { raw: 'x'.repeat(2_000_000) }), COMMON.bodyTooLarge);
      // Any content type is read as JSON, as a lenient provider would.
      const plain = await h.call('POST', path, undefined, {
        raw: '{}',
        headers: { 'content-type': 'text/plain' },
      });
      assert.deepEqual(plain.body, (await h.call('POST', path, {})).body);
    });
  }

  it('wrong types get the field rule, not a crash', async () => {
    const bodies = [
      { transferId: 5, amount: '1', beneDetails: {} },
      { transferId: 'a', amount: {}, beneDetails: {} },
      { transferId: 'a', amount: '1', beneDetails: 'x' },
      { transferId: 'a', amount: '1', beneDetails: { name: 5 } },
      { transferId: 'a', amount: '1e3', beneDetails: { name: 'N' } },
      { transferId: 'a', amount: '-5', beneDetails: { name: 'N' } },
      { transferId: 'a', amount: 'NaN', beneDetails: { name: 'N' }, transferMode: 7 },
    ];
    for (const b of bodies) {
      const res = await h.post('/payout/v1.2/directTransfer', b);
      assert.equal(res.body.status, 'ERROR', JSON.stringify(b));
      assert.ok(['412', '422'].includes(String(res.body.subCode)), JSON.stringify(res.body));
    }
  });

  it('undecodable URLs and over-long path parameters', async () => {
    assertRow(await h.call('GET', `/payout/v1/getBeneficiary/${'x'.repeat(5000)}`), COMMON.invalidUrl);
    assertRow(await h.call('GET', '/payout/v1/getBeneficiary/%E0%A4%A'), COMMON.invalidUrl);
  });

  it('repeated query parameters are refused politely', async () => {
    const res = await h.call('GET', '/payout/v1.2/getTransferStatus?transferId=a&transferId=b');
    assert.equal(res.body.subCode, '422');
  });

  it('v2: malformed JSON, unknown fields, huge bodies', async () => {
    assertV2Row(
      await h.call('POST', '/payout/transfers', undefined, { token: null, raw: '{' }),
      V2_COMMON.malformedJson,
    );
    assertV2Row(await h.v2('POST', '/payout/transfers', { x: 1 }), V2_COMMON.unknownField);
    assertV2Row(
      await h.call('POST', '/payout/transfers', undefined, { token: null, raw: 'y'.repeat(2_000_000) }),
      V2_COMMON.bodyTooLarge,
    );
  });

  it('unknown legacy paths and methods answer 405; the server is still up', async () => {
    const res = await h.call('GET', '/payout/v1/nothingHere');
    assert.equal(res.http, 405);
    assert.equal(res.body.subCode, '405');
    assert.equal((await h.post('/payout/v1/verifyToken')).body.subCode, '200');
  });

  it('serves an OpenAPI document naming every endpoint', async () => {
    const doc = (await h.ctl('GET', '/__sandbox/openapi.json')).body as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    assert.equal(doc.openapi, '3.1.0');
    for (const p of [
      '/payout/transfers',
      '/verification/oauth/token',
      '/payout/v1/authorize',
      '/payout/v1/verifyToken',
      '/payout/v1.2/directTransfer',
      '/payout/v1.2/requestTransfer',
      '/payout/v1/requestBatchTransfer',
      '/payout/v1/getBatchTransferStatus',
      '/payout/v1/internalTransfer',
      '/payout/v1/selfWithdrawal',
      '/payout/v1/getBeneId',
      '/payout/v1/cardpay',
      '/payout/v1/beneHistory',
      '/payout/v1/getTransferStatus',
      '/payout/v1.2/getTransferStatus',
      '/payout/v1/addBeneficiary',
      '/payout/v1/getBeneficiary/{beneId}',
      '/payout/v1/removeBeneficiary',
    ]) {
      assert.ok(doc.paths[p], p);
    }
    assert.ok(doc.paths['/payout/transfers']?.get && doc.paths['/payout/transfers']?.post);
  });
});
