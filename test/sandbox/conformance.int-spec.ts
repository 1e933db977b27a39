import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LEGACY_TABLES, V2_TABLES, type EndpointId, type LegacyRow, type V2Row } from '#sandbox';
import { CoverageReport } from './coverage.js';
import { assertRow, assertV2Row, Harness } from './harness.js';
import { type ScenarioMap } from './scenarios/common.js';
import { CARDPAY_SCENARIOS, DIRECT_SCENARIOS, REQUEST_SCENARIOS } from './scenarios/transfers.js';
import {
  AUTHORIZE_SCENARIOS,
  BATCH_SCENARIOS,
  BATCH_STATUS_SCENARIOS,
  ADD_BENEFICIARY_SCENARIOS,
  GET_BENEFICIARY_SCENARIOS,
  REMOVE_BENEFICIARY_SCENARIOS,
  GET_BENE_ID_SCENARIOS,
  GET_BALANCE_SCENARIOS,
  HISTORY_SCENARIOS,
  INTERNAL_SCENARIOS,
  SELF_SCENARIOS,
  STATUS_SCENARIOS,
  VERIFY_SCENARIOS,
} from './scenarios/accounts.js';
import {
  V2_COMMON_SCENARIOS,
  V2_SDK_SCENARIOS,
  V2_TRANSFER_SCENARIOS,
  V2_TRANSFER_STATUS_SCENARIOS,
} from './scenarios/v2.js';
import {
  V2_BATCH_TRANSFER_SCENARIOS,
  V2_BATCH_TRANSFER_STATUS_SCENARIOS,
  V2_CREATE_BENEFICIARY_SCENARIOS,
  V2_GET_BENEFICIARY_SCENARIOS,
  V2_REMOVE_BENEFICIARY_SCENARIOS,
  V2_STANDARD_TRANSFER_SCENARIOS,
  V2_TRANSFER_STATUS_EXTRA,
} from './scenarios/v2-api.js';

/** A scenario map per endpoint: the compiler refuses an endpoint of the registry without one. */
const SCENARIOS: Readonly<Record<EndpointId | 'v2Common', ScenarioMap>> = {
  authorize: AUTHORIZE_SCENARIOS,
  verifyToken: VERIFY_SCENARIOS,
  directTransfer: DIRECT_SCENARIOS,
  requestTransfer: REQUEST_SCENARIOS,
  requestBatchTransfer: BATCH_SCENARIOS,
  getBatchTransferStatus: BATCH_STATUS_SCENARIOS,
  internalTransfer: INTERNAL_SCENARIOS,
  selfWithdrawal: SELF_SCENARIOS,
  getBeneId: GET_BENE_ID_SCENARIOS,
  cardpay: CARDPAY_SCENARIOS,
  beneHistory: HISTORY_SCENARIOS,
  getTransferStatus: STATUS_SCENARIOS,
  addBeneficiary: ADD_BENEFICIARY_SCENARIOS,
  getBeneficiary: GET_BENEFICIARY_SCENARIOS,
  removeBeneficiary: REMOVE_BENEFICIARY_SCENARIOS,
  getBalance: GET_BALANCE_SCENARIOS,
  processValidatedPayout: V2_TRANSFER_SCENARIOS,
  getTransferStatusV2: { ...V2_TRANSFER_STATUS_SCENARIOS, ...V2_TRANSFER_STATUS_EXTRA },
  createSdkToken: V2_SDK_SCENARIOS,
  transferV2: V2_STANDARD_TRANSFER_SCENARIOS,
  batchTransferV2: V2_BATCH_TRANSFER_SCENARIOS,
  getBatchTransferStatusV2: V2_BATCH_TRANSFER_STATUS_SCENARIOS,
  createBeneficiaryV2: V2_CREATE_BENEFICIARY_SCENARIOS,
  getBeneficiaryV2: V2_GET_BENEFICIARY_SCENARIOS,
  deleteBeneficiaryV2: V2_REMOVE_BENEFICIARY_SCENARIOS,
  v2Common: V2_COMMON_SCENARIOS,
};

const report = new CoverageReport();

/**
 * Walks every row of every error table over real HTTP: each row has a scenario that must make
 * the sandbox answer exactly that row (subCode, status, message and HTTP status).
 */
describe('sandbox conformance: every error-table row', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => {
    report.print();
    await h.close();
  });

  for (const [name, table] of Object.entries(LEGACY_TABLES)) {
    describe(`legacy ${name}`, () => {
      const covered = new Set<string>();
      after(() => report.table(name, table, covered));
      for (const [key, row] of Object.entries<LegacyRow>(table)) {
        const scenario = SCENARIOS[name as keyof typeof SCENARIOS]?.[key];
        it(`${row.subCode} ${row.status} ${key}`, { skip: scenario ? false : 'no scenario' }, async () => {
          await h.fresh();
          const res = await scenario!(h);
          if (name === 'selfWithdrawal' && key === 'success') {
            assert.equal(res.body.statusCode, 200);
            assert.equal(res.body.status, 'SUCCESS');
          } else {
            assertRow(res, row, `${name}.${key}`);
          }
          covered.add(key);
        });
      }
    });
  }

  for (const [name, table] of Object.entries(V2_TABLES)) {
    describe(`v2 ${name}`, () => {
      const covered = new Set<string>();
      after(() => report.table(name, table, covered));
      for (const [key, row] of Object.entries<V2Row>(table)) {
        const scenario = SCENARIOS[name as keyof typeof SCENARIOS]?.[key];
        it(`${row.http} ${row.code} ${key}`, { skip: scenario ? false : 'no scenario' }, async () => {
          await h.fresh();
          // A batch entry's row names its entry: the scenarios make transfers[0] the bad one.
          const expected = { ...row, code: row.code.replace('[i]', '[0]') };
          assertV2Row(await scenario!(h), expected, `${name}.${key}`);
          covered.add(key);
        });
      }
    });
  }

  it('covers every documented row', () => {
    const t = report.totals();
    assert.equal(t.documentedCovered, t.documented, 'documented rows without a passing scenario');
  });
});
