import { COMMON } from './common.table.js';
import { AUTHORIZE } from './authorize.table.js';
import { VERIFY_TOKEN } from './verify-token.table.js';
import { DIRECT_TRANSFER } from './direct-transfer.table.js';
import { REQUEST_TRANSFER } from './request-transfer.table.js';
import { BATCH_TRANSFER } from './request-batch-transfer.table.js';
import { BATCH_STATUS } from './get-batch-transfer-status.table.js';
import { INTERNAL_TRANSFER } from './internal-transfer.table.js';
import { SELF_WITHDRAWAL } from './self-withdrawal.table.js';
import { GET_BENE_ID } from './get-bene-id.table.js';
import { GET_BALANCE } from './get-balance.table.js';
import { CARDPAY } from './cardpay.table.js';
import { BENE_HISTORY } from './bene-history.table.js';
import { TRANSFER_STATUS } from './get-transfer-status.table.js';
import { ADD_BENEFICIARY } from './add-beneficiary.table.js';
import { GET_BENEFICIARY } from './get-beneficiary.table.js';
import { REMOVE_BENEFICIARY } from './remove-beneficiary.table.js';
import { V2_COMMON } from './v2-common.table.js';
import { V2_TRANSFER } from './process-validated-payout.table.js';
import { V2_TRANSFER_STATUS } from './get-transfer-status-v2.table.js';
import { V2_SDK_TOKEN } from './create-sdk-token.table.js';
import { V2_STANDARD_TRANSFER } from './transfer-v2.table.js';
import { V2_BATCH_TRANSFER } from './batch-transfer-v2.table.js';
import { V2_BATCH_TRANSFER_STATUS } from './get-batch-transfer-status-v2.table.js';
import { V2_CREATE_BENEFICIARY } from './create-beneficiary-v2.table.js';
import { V2_GET_BENEFICIARY } from './get-beneficiary-v2.table.js';
import { V2_REMOVE_BENEFICIARY } from './delete-beneficiary-v2.table.js';

export * from './row.js';
export {
  COMMON,
  AUTHORIZE,
  VERIFY_TOKEN,
  DIRECT_TRANSFER,
  REQUEST_TRANSFER,
  BATCH_TRANSFER,
  BATCH_STATUS,
  INTERNAL_TRANSFER,
  SELF_WITHDRAWAL,
  GET_BENE_ID,
  GET_BALANCE,
  CARDPAY,
  BENE_HISTORY,
  TRANSFER_STATUS,
  ADD_BENEFICIARY,
  GET_BENEFICIARY,
  REMOVE_BENEFICIARY,
  V2_COMMON,
  V2_TRANSFER,
  V2_TRANSFER_STATUS,
  V2_SDK_TOKEN,
  V2_STANDARD_TRANSFER,
  V2_BATCH_TRANSFER,
  V2_BATCH_TRANSFER_STATUS,
  V2_CREATE_BENEFICIARY,
  V2_GET_BENEFICIARY,
  V2_REMOVE_BENEFICIARY,
};
