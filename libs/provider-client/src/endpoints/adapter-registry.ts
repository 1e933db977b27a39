import { addBeneficiaryAdapter } from '../adapters/add-beneficiary.adapter.js';
import { authorizeAdapter } from '../adapters/authorize.adapter.js';
import { batchTransferV2Adapter } from '../adapters/batch-transfer-v2.adapter.js';
import { beneHistoryAdapter } from '../adapters/bene-history.adapter.js';
import { cardpayAdapter } from '../adapters/cardpay.adapter.js';
import { createBeneficiaryV2Adapter } from '../adapters/create-beneficiary-v2.adapter.js';
import { createSdkTokenAdapter } from '../adapters/create-sdk-token.adapter.js';
import { deleteBeneficiaryV2Adapter } from '../adapters/delete-beneficiary-v2.adapter.js';
import { directTransferAdapter } from '../adapters/direct-transfer.adapter.js';
import { getBalanceAdapter } from '../adapters/get-balance.adapter.js';
import { getBatchTransferStatusV2Adapter } from '../adapters/get-batch-transfer-status-v2.adapter.js';
import { getBatchTransferStatusAdapter } from '../adapters/get-batch-transfer-status.adapter.js';
import { getBeneIdAdapter } from '../adapters/get-bene-id.adapter.js';
import { getBeneficiaryV2Adapter } from '../adapters/get-beneficiary-v2.adapter.js';
import { getBeneficiaryAdapter } from '../adapters/get-beneficiary.adapter.js';
import { getTransferStatusV2Adapter } from '../adapters/get-transfer-status-v2.adapter.js';
import { getTransferStatusAdapter } from '../adapters/get-transfer-status.adapter.js';
import { internalTransferAdapter } from '../adapters/internal-transfer.adapter.js';
import { processValidatedPayoutAdapter } from '../adapters/process-validated-payout.adapter.js';
import { removeBeneficiaryAdapter } from '../adapters/remove-beneficiary.adapter.js';
import { requestBatchTransferAdapter } from '../adapters/request-batch-transfer.adapter.js';
import { requestTransferAdapter } from '../adapters/request-transfer.adapter.js';
import { selfWithdrawalAdapter } from '../adapters/self-withdrawal.adapter.js';
import { transferV2Adapter } from '../adapters/transfer-v2.adapter.js';
import { addBeneficiaryOutcomes } from '../adapters/add-beneficiary.outcomes.js';
import { authorizeOutcomes } from '../adapters/authorize.outcomes.js';
import { batchTransferV2Outcomes } from '../adapters/batch-transfer-v2.outcomes.js';
import { beneHistoryOutcomes } from '../adapters/bene-history.outcomes.js';
import { cardpayOutcomes } from '../adapters/cardpay.outcomes.js';
import { createBeneficiaryV2Outcomes } from '../adapters/create-beneficiary-v2.outcomes.js';
import { createSdkTokenOutcomes } from '../adapters/create-sdk-token.outcomes.js';
import { deleteBeneficiaryV2Outcomes } from '../adapters/delete-beneficiary-v2.outcomes.js';
import { directTransferOutcomes } from '../adapters/direct-transfer.outcomes.js';
import { getBalanceOutcomes } from '../adapters/get-balance.outcomes.js';
import { getBatchTransferStatusOutcomes } from '../adapters/get-batch-transfer-status.outcomes.js';
import { getBatchTransferStatusV2Outcomes } from '../adapters/get-batch-transfer-status-v2.outcomes.js';
import { getBeneIdOutcomes } from '../adapters/get-bene-id.outcomes.js';
import { getBeneficiaryOutcomes } from '../adapters/get-beneficiary.outcomes.js';
import { getBeneficiaryV2Outcomes } from '../adapters/get-beneficiary-v2.outcomes.js';
import { getTransferStatusOutcomes } from '../adapters/get-transfer-status.outcomes.js';
import { getTransferStatusV2Outcomes } from '../adapters/get-transfer-status-v2.outcomes.js';
import { internalTransferOutcomes } from '../adapters/internal-transfer.outcomes.js';
import { processValidatedPayoutOutcomes } from '../adapters/process-validated-payout.outcomes.js';
import { removeBeneficiaryOutcomes } from '../adapters/remove-beneficiary.outcomes.js';
import { requestBatchTransferOutcomes } from '../adapters/request-batch-transfer.outcomes.js';
import { requestTransferOutcomes } from '../adapters/request-transfer.outcomes.js';
import { selfWithdrawalOutcomes } from '../adapters/self-withdrawal.outcomes.js';
import { transferV2Outcomes } from '../adapters/transfer-v2.outcomes.js';
import { type ProviderApi } from '#contracts';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { type LegacyOutcomeTable } from '../core/legacy-classify.js';
import { type V2OutcomeTable } from '../core/v2-classify.js';

/** One provider endpoint: its adapter, its outcome table and the API generation it belongs to. */
export interface RegisteredEndpoint<Req = never, D = unknown> {
  readonly name: string;
  readonly generation: ProviderApi;
  readonly adapter: EndpointAdapter<Req, D>;
  /** The table the adapter classifies answers by (the provider's status words and codes). */
  readonly outcomes: LegacyOutcomeTable | V2OutcomeTable;
}

/** A row keeps its adapter's request and answer types: `call` reads them from it. */
const entry = <Req, D>(
  generation: ProviderApi,
  adapter: EndpointAdapter<Req, D>,
  outcomes: LegacyOutcomeTable | V2OutcomeTable,
): RegisteredEndpoint<Req, D> => ({
  name: adapter.name,
  generation,
  adapter,
  outcomes,
});

/**
 * Every provider endpoint the service calls, once. The endpoint names (EndpointName), the
 * client's one call (`ProviderClient.call(name, request)`, typed from the row's adapter) and the
 * lists the service shows (configuration keys, docs) derive from it. Adding an endpoint: its
 * adapter and outcome table, a row here, a connector method that uses it, and its sandbox handler
 * (docs/PROVIDER-CLIENT.md, "Adding an endpoint"). The spec checks each key names its adapter.
 */
export const ADAPTER_REGISTRY = {
  authorize: entry('v1', authorizeAdapter, authorizeOutcomes),
  requestTransfer: entry('v1', requestTransferAdapter, requestTransferOutcomes),
  directTransfer: entry('v1', directTransferAdapter, directTransferOutcomes),
  cardpay: entry('v1', cardpayAdapter, cardpayOutcomes),
  requestBatchTransfer: entry('v1', requestBatchTransferAdapter, requestBatchTransferOutcomes),
  getBatchTransferStatus: entry('v1', getBatchTransferStatusAdapter, getBatchTransferStatusOutcomes),
  internalTransfer: entry('v1', internalTransferAdapter, internalTransferOutcomes),
  selfWithdrawal: entry('v1', selfWithdrawalAdapter, selfWithdrawalOutcomes),
  getBeneId: entry('v1', getBeneIdAdapter, getBeneIdOutcomes),
  beneHistory: entry('v1', beneHistoryAdapter, beneHistoryOutcomes),
  getTransferStatus: entry('v1', getTransferStatusAdapter, getTransferStatusOutcomes),
  addBeneficiary: entry('v1', addBeneficiaryAdapter, addBeneficiaryOutcomes),
  getBeneficiary: entry('v1', getBeneficiaryAdapter, getBeneficiaryOutcomes),
  removeBeneficiary: entry('v1', removeBeneficiaryAdapter, removeBeneficiaryOutcomes),
  getBalance: entry('v1', getBalanceAdapter, getBalanceOutcomes),
  processValidatedPayout: entry('v2', processValidatedPayoutAdapter, processValidatedPayoutOutcomes),
  createSdkToken: entry('v2', createSdkTokenAdapter, createSdkTokenOutcomes),
  getTransferStatusV2: entry('v2', getTransferStatusV2Adapter, getTransferStatusV2Outcomes),
  transferV2: entry('v2', transferV2Adapter, transferV2Outcomes),
  batchTransferV2: entry('v2', batchTransferV2Adapter, batchTransferV2Outcomes),
  getBatchTransferStatusV2: entry('v2', getBatchTransferStatusV2Adapter, getBatchTransferStatusV2Outcomes),
  createBeneficiaryV2: entry('v2', createBeneficiaryV2Adapter, createBeneficiaryV2Outcomes),
  getBeneficiaryV2: entry('v2', getBeneficiaryV2Adapter, getBeneficiaryV2Outcomes),
  deleteBeneficiaryV2: entry('v2', deleteBeneficiaryV2Adapter, deleteBeneficiaryV2Outcomes),
} as const satisfies { readonly [name: string]: RegisteredEndpoint<never, unknown> };

/** Every endpoint the service calls, by name: the registry's keys. */
export type EndpointName = keyof typeof ADAPTER_REGISTRY;

/** The endpoints `call` reaches: all but `authorize`, which the executor calls behind bearer calls. */
export type CallableEndpoint = Exclude<EndpointName, 'authorize'>;

/** The request an endpoint takes, read from its registry row. */
export type RequestOf<N extends EndpointName> =
  (typeof ADAPTER_REGISTRY)[N]['adapter'] extends EndpointAdapter<infer Req, unknown> ? Req : never;

/** The data an endpoint answers, read from its registry row. */
export type AnswerOf<N extends EndpointName> =
  (typeof ADAPTER_REGISTRY)[N]['adapter'] extends EndpointAdapter<never, infer D> ? D : never;

/** The registry as a list, in its order. */
export const REGISTERED_ENDPOINTS: readonly RegisteredEndpoint<never, unknown>[] =
  Object.values(ADAPTER_REGISTRY);

/** Every endpoint name, from the registry. */
export const ENDPOINT_NAMES = Object.keys(ADAPTER_REGISTRY) as readonly EndpointName[];

export function isEndpointName(v: string): v is EndpointName {
  return Object.hasOwn(ADAPTER_REGISTRY, v);
}
