import { type AuthorizeData } from './adapters/authorize.adapter.js';
import {
  beneHistoryAdapter,
  type BeneHistory,
  type BeneHistoryRequest,
} from './adapters/bene-history.adapter.js';
import { cardpayAdapter, type CardpayRequest } from './adapters/cardpay.adapter.js';
import {
  createSdkTokenAdapter,
  type CreateSdkTokenRequest,
  type SdkToken,
} from './adapters/create-sdk-token.adapter.js';
import { directTransferAdapter, type DirectTransferRequest } from './adapters/direct-transfer.adapter.js';
import {
  getBatchTransferStatusAdapter,
  type BatchTransferStatus,
  type GetBatchTransferStatusRequest,
} from './adapters/get-batch-transfer-status.adapter.js';
import {
  getBeneIdAdapter,
  type GetBeneIdRequest,
  type GetBeneIdResult,
} from './adapters/get-bene-id.adapter.js';
import {
  getTransferStatusV2Adapter,
  type GetTransferStatusV2Request,
} from './adapters/get-transfer-status-v2.adapter.js';
import {
  getTransferStatusAdapter,
  type GetTransferStatusRequest,
  type LegacyTransferStatus,
} from './adapters/get-transfer-status.adapter.js';
import {
  internalTransferAdapter,
  type InternalTransferRequest,
  type InternalTransferResult,
} from './adapters/internal-transfer.adapter.js';
import { type LegacyTransferResult } from './adapters/legacy-decoders.js';
import {
  processValidatedPayoutAdapter,
  type ProcessValidatedPayoutRequest,
} from './adapters/process-validated-payout.adapter.js';
import {
  requestBatchTransferAdapter,
  type BatchTransferAccepted,
  type RequestBatchTransferRequest,
} from './adapters/request-batch-transfer.adapter.js';
import { requestTransferAdapter, type RequestTransferRequest } from './adapters/request-transfer.adapter.js';
import {
  selfWithdrawalAdapter,
  type SelfWithdrawalRequest,
  type SelfWithdrawalResult,
} from './adapters/self-withdrawal.adapter.js';
import { type V2Transfer } from './adapters/v2-transfer.js';
import { addBeneficiaryAdapter, type BeneficiaryAdded } from './adapters/add-beneficiary.adapter.js';
import { type BeneficiaryDetails, type ProviderBeneficiary } from './adapters/beneficiary.js';
import { createBeneficiaryV2Adapter } from './adapters/create-beneficiary-v2.adapter.js';
import {
  deleteBeneficiaryV2Adapter,
  type DeleteBeneficiaryV2Request,
} from './adapters/delete-beneficiary-v2.adapter.js';
import { getBeneficiaryAdapter, type GetBeneficiaryRequest } from './adapters/get-beneficiary.adapter.js';
import {
  getBeneficiaryV2Adapter,
  type GetBeneficiaryV2Request,
} from './adapters/get-beneficiary-v2.adapter.js';
import { removeBeneficiaryAdapter, type BeneficiaryRemoved } from './adapters/remove-beneficiary.adapter.js';
import { transferV2Adapter, type TransferV2Request } from './adapters/transfer-v2.adapter.js';
import {
  batchTransferV2Adapter,
  type BatchTransferV2Accepted,
  type BatchTransferV2Request,
} from './adapters/batch-transfer-v2.adapter.js';
import {
  getBatchTransferStatusV2Adapter,
  type BatchTransferStatusV2,
  type GetBatchTransferStatusV2Request,
} from './adapters/get-batch-transfer-status-v2.adapter.js';
import { type ProviderResult } from './core/outcome.js';
import { type ExecutorDeps, RequestExecutor, type ResultListener } from './request-executor.js';
import { type ProviderClientOptions } from './provider-client.options.js';

/** Per call: which account (default: the configured primary) and the caller's X-Request-Id. */
export interface CallOptions {
  readonly accountId?: string;
  readonly requestId?: string;
}

/**
 * The provider, one method per endpoint. Every method resolves (never rejects) to a
 * ProviderResult; branch on `outcome`.
 */
export class ProviderClient {
  private readonly exec: RequestExecutor;

  constructor(
    opts: ProviderClientOptions,
    private readonly deps: ExecutorDeps,
  ) {
    this.exec = new RequestExecutor(opts, deps);
  }

  processValidatedPayout(
    r: ProcessValidatedPayoutRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<V2Transfer>> {
    return this.exec.execute(processValidatedPayoutAdapter, o.accountId, r, o.requestId);
  }
  createSdkToken(r: CreateSdkTokenRequest, o: CallOptions = {}): Promise<ProviderResult<SdkToken>> {
    return this.exec.execute(createSdkTokenAdapter, o.accountId, r, o.requestId);
  }
  directTransfer(
    r: DirectTransferRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<LegacyTransferResult>> {
    return this.exec.execute(directTransferAdapter, o.accountId, r, o.requestId);
  }
  requestTransfer(
    r: RequestTransferRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<LegacyTransferResult>> {
    return this.exec.execute(requestTransferAdapter, o.accountId, r, o.requestId);
  }
  requestBatchTransfer(
    r: RequestBatchTransferRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<BatchTransferAccepted>> {
    return this.exec.execute(requestBatchTransferAdapter, o.accountId, r, o.requestId);
  }
  internalTransfer(
    r: InternalTransferRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<InternalTransferResult>> {
    return this.exec.execute(internalTransferAdapter, o.accountId, r, o.requestId);
  }
  selfWithdrawal(
    r: SelfWithdrawalRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<SelfWithdrawalResult>> {
    return this.exec.execute(selfWithdrawalAdapter, o.accountId, r, o.requestId);
  }
  getBeneId(r: GetBeneIdRequest, o: CallOptions = {}): Promise<ProviderResult<GetBeneIdResult>> {
    return this.exec.execute(getBeneIdAdapter, o.accountId, r, o.requestId);
  }
  getBatchTransferStatus(
    r: GetBatchTransferStatusRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<BatchTransferStatus>> {
    return this.exec.execute(getBatchTransferStatusAdapter, o.accountId, r, o.requestId);
  }
  cardpay(r: CardpayRequest, o: CallOptions = {}): Promise<ProviderResult<LegacyTransferResult>> {
    return this.exec.execute(cardpayAdapter, o.accountId, r, o.requestId);
  }
  beneHistory(r: BeneHistoryRequest, o: CallOptions = {}): Promise<ProviderResult<BeneHistory>> {
    return this.exec.execute(beneHistoryAdapter, o.accountId, r, o.requestId);
  }
  getTransferStatus(
    r: GetTransferStatusRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<LegacyTransferStatus>> {
    return this.exec.execute(getTransferStatusAdapter, o.accountId, r, o.requestId);
  }
  getTransferStatusV2(
    r: GetTransferStatusV2Request,
    o: CallOptions = {},
  ): Promise<ProviderResult<V2Transfer>> {
    return this.exec.execute(getTransferStatusV2Adapter, o.accountId, r, o.requestId);
  }
  transferV2(r: TransferV2Request, o: CallOptions = {}): Promise<ProviderResult<V2Transfer>> {
    return this.exec.execute(transferV2Adapter, o.accountId, r, o.requestId);
  }
  batchTransferV2(
    r: BatchTransferV2Request,
    o: CallOptions = {},
  ): Promise<ProviderResult<BatchTransferV2Accepted>> {
    return this.exec.execute(batchTransferV2Adapter, o.accountId, r, o.requestId);
  }
  getBatchTransferStatusV2(
    r: GetBatchTransferStatusV2Request,
    o: CallOptions = {},
  ): Promise<ProviderResult<BatchTransferStatusV2>> {
    return this.exec.execute(getBatchTransferStatusV2Adapter, o.accountId, r, o.requestId);
  }

  addBeneficiary(r: BeneficiaryDetails, o: CallOptions = {}): Promise<ProviderResult<BeneficiaryAdded>> {
    return this.exec.execute(addBeneficiaryAdapter, o.accountId, r, o.requestId);
  }
  getBeneficiary(
    r: GetBeneficiaryRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<ProviderBeneficiary>> {
    return this.exec.execute(getBeneficiaryAdapter, o.accountId, r, o.requestId);
  }
  removeBeneficiary(
    r: GetBeneficiaryRequest,
    o: CallOptions = {},
  ): Promise<ProviderResult<BeneficiaryRemoved>> {
    return this.exec.execute(removeBeneficiaryAdapter, o.accountId, r, o.requestId);
  }
  createBeneficiaryV2(
    r: BeneficiaryDetails,
    o: CallOptions = {},
  ): Promise<ProviderResult<ProviderBeneficiary>> {
    return this.exec.execute(createBeneficiaryV2Adapter, o.accountId, r, o.requestId);
  }
  getBeneficiaryV2(
    r: GetBeneficiaryV2Request,
    o: CallOptions = {},
  ): Promise<ProviderResult<ProviderBeneficiary>> {
    return this.exec.execute(getBeneficiaryV2Adapter, o.accountId, r, o.requestId);
  }
  deleteBeneficiaryV2(
    r: DeleteBeneficiaryV2Request,
    o: CallOptions = {},
  ): Promise<ProviderResult<ProviderBeneficiary>> {
    return this.exec.execute(deleteBeneficiaryV2Adapter, o.accountId, r, o.requestId);
  }

  /** Forces a fresh bearer token. The token itself stays inside; callers see its expiry. */
  async authorize(o: CallOptions = {}): Promise<ProviderResult<Pick<AuthorizeData, 'expiresAt'>>> {
    const r = await this.exec.authorize(o.accountId);
    if (r.outcome !== 'success') return r.outcome === 'pending' ? { ...r, data: undefined } : r;
    return { outcome: 'success', data: { expiresAt: r.data.expiresAt }, diagnostics: r.diagnostics };
  }

  /**
   * Observes every result of a configured account (each call, and each authorize behind a bearer
   * call), e.g. to follow whether the provider still accepts our credentials and address.
   */
  onResult(listener: ResultListener): void {
    this.exec.onResult(listener);
  }

  async close(): Promise<void> {
    await this.exec.close();
    await this.deps.transport.close();
  }
}
