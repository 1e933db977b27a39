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
import { getBalance } from './get-balance.handler.js';
import { getBeneId } from './get-bene-id.handler.js';
import { internalTransfer } from './internal-transfer.handler.js';
import { requestTransfer } from './request-transfer.handler.js';
import { createSdkToken } from './create-sdk-token.handler.js';
import { selfWithdrawal } from './self-withdrawal.handler.js';
import { getTransferStatus } from './get-transfer-status.handler.js';
import { type V2Endpoint } from './v2-endpoint.js';
import { type EndpointId } from '../core/settings.js';
import { type LegacyTable, type V2Table } from '../tables/row.js';
import { V2_COMMON } from '../tables/v2-common.table.js';
import { processValidatedPayout } from './process-validated-payout.handler.js';
import { getTransferStatusV2 } from './get-transfer-status-v2.handler.js';
import { transferV2 } from './transfer-v2.handler.js';
import { batchTransferV2 } from './batch-transfer-v2.handler.js';
import { getBatchTransferStatusV2 } from './get-batch-transfer-status-v2.handler.js';
import { createBeneficiaryV2 } from './create-beneficiary-v2.handler.js';
import { getBeneficiaryV2 } from './get-beneficiary-v2.handler.js';
import { deleteBeneficiaryV2 } from './delete-beneficiary-v2.handler.js';

/** One endpoint the sandbox serves: its handler (with its paths and error table) and its API generation. */
export type RegisteredHandler =
  | { readonly generation: 'v1'; readonly endpoint: LegacyEndpoint }
  | { readonly generation: 'v2'; readonly endpoint: V2Endpoint };

const v1 = (endpoint: LegacyEndpoint): RegisteredHandler => ({ generation: 'v1', endpoint });
const v2 = (endpoint: V2Endpoint): RegisteredHandler => ({ generation: 'v2', endpoint });

/**
 * Every endpoint the sandbox serves, once, under the name the client's endpoint registry gives it
 * (libs/provider-client, `ENDPOINT_NAMES`; test/sandbox/endpoint-names.int-spec.ts holds the two
 * equal), plus the ones the service does not call (`verifyToken`; `getBalance` until the
 * client's balance adapter comes, issue 32). Keyed by `EndpointId`, so
 * the compiler refuses an id without its handler; everything else that lists endpoints derives
 * from it: the routes, the OpenAPI document, the error tables by endpoint, the control API's
 * vocabulary (faults, flags, rate limits) and random mode's initiations. The spec checks each key
 * names its handler. v2 endpoints sharing a route answer in this order: `processValidatedPayout`
 * (a body with a transfer token) before `transferV2`, both on `POST /payout/transfers`.
 */
export const HANDLER_REGISTRY: { readonly [N in EndpointId]: RegisteredHandler } = {
  authorize: v1(authorize),
  verifyToken: v1(verifyToken),
  requestTransfer: v1(requestTransfer),
  directTransfer: v1(directTransfer),
  cardpay: v1(cardpay),
  requestBatchTransfer: v1(requestBatchTransfer),
  getBatchTransferStatus: v1(getBatchTransferStatus),
  internalTransfer: v1(internalTransfer),
  selfWithdrawal: v1(selfWithdrawal),
  getBeneId: v1(getBeneId),
  beneHistory: v1(beneHistory),
  getTransferStatus: v1(getTransferStatus),
  addBeneficiary: v1(addBeneficiary),
  getBeneficiary: v1(getBeneficiary),
  removeBeneficiary: v1(removeBeneficiary),
  getBalance: v1(getBalance),
  processValidatedPayout: v2(processValidatedPayout),
  createSdkToken: v2(createSdkToken),
  getTransferStatusV2: v2(getTransferStatusV2),
  transferV2: v2(transferV2),
  batchTransferV2: v2(batchTransferV2),
  getBatchTransferStatusV2: v2(getBatchTransferStatusV2),
  createBeneficiaryV2: v2(createBeneficiaryV2),
  getBeneficiaryV2: v2(getBeneficiaryV2),
  deleteBeneficiaryV2: v2(deleteBeneficiaryV2),
};

const REGISTERED: readonly RegisteredHandler[] = Object.values(HANDLER_REGISTRY);

/** Every endpoint id, in the registry's order. */
export const ENDPOINT_IDS = Object.keys(HANDLER_REGISTRY) as [EndpointId, ...EndpointId[]];

export function isEndpointId(v: string): v is EndpointId {
  return Object.hasOwn(HANDLER_REGISTRY, v);
}

/** The legacy endpoints (`{payout_url}`), in the registry's order. */
export const LEGACY_ENDPOINTS: readonly LegacyEndpoint[] = REGISTERED.flatMap((r) =>
  r.generation === 'v1' ? [r.endpoint] : [],
);

/** The v2 endpoints (`{base_url}`), in the registry's order (the order shared routes try them). */
export const V2_ENDPOINTS: readonly V2Endpoint[] = REGISTERED.flatMap((r) =>
  r.generation === 'v2' ? [r.endpoint] : [],
);

/** Money-moving endpoints (those naming what they initiate): where random fault mode injects by default. */
export const INITIATION_ENDPOINTS: readonly EndpointId[] = REGISTERED.filter(
  (r) => r.endpoint.initiationKey !== undefined,
).map((r) => r.endpoint.id);

/** Every legacy error table by endpoint id (one table per endpoint), for tests and coverage reports. */
export const LEGACY_TABLES: Readonly<Record<string, LegacyTable>> = Object.fromEntries(
  LEGACY_ENDPOINTS.map((ep) => [ep.id, ep.table]),
);

/** Every v2 error table by endpoint id, plus the rows every v2 call can produce (`v2Common`). */
export const V2_TABLES: Readonly<Record<string, V2Table>> = {
  ...Object.fromEntries(V2_ENDPOINTS.map((ep): [string, V2Table] => [ep.id, ep.table])),
  v2Common: V2_COMMON,
};
