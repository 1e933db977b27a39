import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Harness, type Res } from './harness.js';

const LEGACY_POSTS = [
  '/payout/v1.2/directTransfer',
  '/payout/v1.2/requestTransfer',
  '/payout/v1/cardpay',
  '/payout/v1/requestBatchTransfer',
  '/payout/v1/internalTransfer',
  '/payout/v1/selfWithdrawal',
  '/payout/v1/addBeneficiary',
  '/payout/v1/removeBeneficiary',
];

/** Field names the endpoints know, so generated bodies reach the field rules, not only "unknown field". */
const KNOWN = [
  'transferId',
  'amount',
  'beneId',
  'transferMode',
  'beneDetails',
  'remarks',
  'token',
  'batch',
  'batchFormat',
];

function assertLegacyShape(res: Res): void {
  assert.ok(['SUCCESS', 'PENDING', 'ERROR'].includes(String(res.body.status)), JSON.stringify(res.body));
  assert.equal(typeof res.body.message, 'string');
  assert.ok(res.http < 500 || res.http === 520, `HTTP ${res.http} ${JSON.stringify(res.body)}`);
}

/** Property: whatever JSON arrives, the answer is a provider-style envelope and never a 5xx. */
describe('sandbox fuzz', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start({ rateLimits: { transfer: 0, other: 0, status: 0 } });
  });
  after(() => h.close());

  const body = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom(...KNOWN), fc.jsonValue(), { maxKeys: 6 }),
  );

  it('legacy POST endpoints', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LEGACY_POSTS), body, async (path, b) => {
        assertLegacyShape(await h.post(path, b));
      }),
      { numRuns: 300 },
    );
  });

  it('legacy GET query strings', async () => {
    const paths = ['/payout/v1/beneHistory', '/payout/v1/getBeneId', '/payout/v1.2/getTransferStatus'];
    const key = fc.constantFrom(
      'beneId',
      'startDate',
      'endDate',
      'perPage',
      'page',
      'bankAccount',
      'ifsc',
      'transferId',
      'referenceId',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.array(fc.tuple(key, fc.string()), { maxLength: 5 }),
        async (path, pairs) => {
          const qs = new URLSearchParams(pairs).toString();
          assertLegacyShape(await h.call('GET', `${path}?${qs}`));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('v2 transfers', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await h.v2('POST', '/payout/transfers', b);
        assert.equal(
          res.http === 200 || res.http === 400 || res.http === 404 || res.http === 422,
          true,
          JSON.stringify(res.body),
        );
        if (res.http !== 200) assert.equal(res.body.type, 'invalid_request_error');
      }),
      { numRuns: 200 },
    );
  });
});
