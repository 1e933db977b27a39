import { authorize } from './authorize.handler.js';
import { verifyToken } from './verify-token.handler.js';
import { requestBatchTransfer } from './request-batch-transfer.handler.js';
import { getBatchTransferStatus } from './get-batch-transfer-status.handler.js';
import { beneHistory } from './bene-history.handler.js';
import { addBeneficiary } from './add-beneficiary.handler.js';
import { getBeneficiary } from './get-beneficiary.handler.js';
import { removeBeneficiary } from './remove-beneficiary.handler.js';
import { cardpay } from './cardpay.handler.js';
import { directTransfer } from './direct-transfer.handler.js';
import { type LegacyEndpoint } from './endpoint.js';
import { getBeneId } from './get-bene-id.handler.js';
import { internalTransfer } from './internal-transfer.handler.js';
import { requestTransfer } from './request-transfer.handler.js';
import { sdkToken } from './create-sdk-token.handler.js';
import { selfWithdrawal } from './self-withdrawal.handler.js';
import { getTransferStatus } from './get-transfer-status.handler.js';
import { type V2Endpoint } from './v2-endpoint.js';
import { v2Transfer } from './process-validated-payout.handler.js';
import { v2TransferStatus } from './get-transfer-status-v2.handler.js';
import { v2StandardTransfer } from './standard-transfer-v2.handler.js';
import { v2BatchTransfer } from './batch-transfer-v2.handler.js';
import { v2BatchTransferStatus } from './get-batch-transfer-status-v2.handler.js';
import { v2CreateBeneficiary } from './create-beneficiary-v2.handler.js';
import { v2GetBeneficiary } from './get-beneficiary-v2.handler.js';
import { v2RemoveBeneficiary } from './remove-beneficiary-v2.handler.js';

export const LEGACY_ENDPOINTS: readonly LegacyEndpoint[] = [
  authorize,
  verifyToken,
  directTransfer,
  requestTransfer,
  requestBatchTransfer,
  getBatchTransferStatus,
  internalTransfer,
  selfWithdrawal,
  getBeneId,
  cardpay,
  beneHistory,
  getTransferStatus,
  addBeneficiary,
  getBeneficiary,
  removeBeneficiary,
];

/**
 * v2 endpoints. `v2Transfer` (transfer token) comes before `v2StandardTransfer`: they share
 * `POST /payout/transfers` and the first whose `accepts` takes the body answers it.
 */
export const V2_ENDPOINTS: readonly V2Endpoint[] = [
  v2Transfer,
  v2StandardTransfer,
  v2TransferStatus,
  v2BatchTransfer,
  v2BatchTransferStatus,
  v2CreateBeneficiary,
  v2GetBeneficiary,
  v2RemoveBeneficiary,
  sdkToken,
];
