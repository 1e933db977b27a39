import { type LegacyTable, type V2Table } from './row.js';
import { COMMON } from './common.table.js';
import { DIRECT_TRANSFER } from './direct-transfer.table.js';
import { REQUEST_TRANSFER } from './request-transfer.table.js';
import { CARDPAY } from './cardpay.table.js';
import { BATCH_STATUS, BATCH_TRANSFER } from './request-batch-transfer.table.js';
import { INTERNAL_TRANSFER, SELF_WITHDRAWAL } from './internal-transfer.table.js';
import { BENE_HISTORY, BENEFICIARY, GET_BENE_ID } from './get-bene-id.table.js';
import { AUTHORIZE, TRANSFER_STATUS, VERIFY_TOKEN } from './authorize.table.js';
import { V2_COMMON, V2_SDK_TOKEN, V2_TRANSFER } from './process-validated-payout.table.js';

export * from './row.js';
export {
  COMMON,
  DIRECT_TRANSFER,
  REQUEST_TRANSFER,
  CARDPAY,
  BATCH_STATUS,
  BATCH_TRANSFER,
  INTERNAL_TRANSFER,
  SELF_WITHDRAWAL,
  BENE_HISTORY,
  BENEFICIARY,
  GET_BENE_ID,
  AUTHORIZE,
  TRANSFER_STATUS,
  VERIFY_TOKEN,
  V2_COMMON,
  V2_SDK_TOKEN,
  V2_TRANSFER,
};

/** Every legacy error table by endpoint, for tests and coverage reports. */
export const LEGACY_TABLES: Readonly<Record<string, LegacyTable>> = {
  authorize: AUTHORIZE,
  verifyToken: VERIFY_TOKEN,
  directTransfer: DIRECT_TRANSFER,
  requestTransfer: REQUEST_TRANSFER,
  requestBatchTransfer: BATCH_TRANSFER,
  getBatchTransferStatus: BATCH_STATUS,
  internalTransfer: INTERNAL_TRANSFER,
  selfWithdrawal: SELF_WITHDRAWAL,
  getBeneId: GET_BENE_ID,
  cardpay: CARDPAY,
  beneHistory: BENE_HISTORY,
  getTransferStatus: TRANSFER_STATUS,
  beneficiary: BENEFICIARY,
};

export const V2_TABLES: Readonly<Record<string, V2Table>> = {
  v2Transfer: V2_TRANSFER,
  sdkToken: V2_SDK_TOKEN,
  v2Common: V2_COMMON,
};
