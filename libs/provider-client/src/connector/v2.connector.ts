import { type BatchEntry, type BatchFormat, type TransferMode } from '#contracts';
import {
  type TransferV2Request,
  type V2Beneficiary,
  type V2TransferMode,
} from '../adapters/transfer-v2.adapter.js';
import { providerTransferId } from '../adapters/v2-transfer.js';
import { type ProviderResult } from '../core/outcome.js';
import { transferFee } from '../core/transfer-fee.js';
import { entryStatus } from '../core/status-mapping.js';
import { type EndpointName } from '../endpoints/adapter-registry.js';
import { type CallOptions, type ProviderClient } from '../provider-client.js';
import {
  type BatchCheck,
  type BatchSubmitted,
  type BatchToSend,
  type ConnectorKind,
  type KindTraits,
  type PayoutCheck,
  type PayoutConnector,
  type PayoutSubmitted,
  type PayoutToSend,
} from './connector.port.js';
import { kindTraits } from './kind-traits.js';
import { checkBy, commonRequest, send } from './shared-calls.js';

/**
 * The command's transfer modes on Transfers V2. The two wallet modes carry brand names the
 * interface hides; v2 names its wallets itself (paytm, amazonpay) and no source says which is
 * which, so a wallet payout on a v2 account is refused before it is sent, never guessed.
 */
const V2_MODE: Readonly<Record<TransferMode, V2TransferMode | undefined>> = {
  banktransfer: 'banktransfer',
  neft: 'neft',
  imps: 'imps',
  rtgs: 'rtgs',
  upi: 'upi',
  wallet_a: undefined,
  wallet_b: undefined,
};

/** The mode a batch format restricts its entries to (interface: "restricts processing to that mode"). */
const FORMAT_MODE: Readonly<Record<BatchFormat, TransferMode | undefined>> = {
  BENEFICIARY_ID: undefined,
  BANK_ACCOUNT: 'banktransfer',
  UPI: 'upi',
  WALLET_A: 'wallet_a',
  WALLET_B: 'wallet_b',
};

const WALLET = 'transfer_mode_invalid';
const WALLET_MESSAGE = 'wallet transfer modes are not sent on the v2 API; use a v1 account';

/** A request refused here, never sent: the pipeline treats it as any refusal of a first send. */
function refused(
  endpoint: EndpointName,
  opts: CallOptions,
  code: string,
  message: string,
): ProviderResult<never> {
  return {
    outcome: 'failed',
    kind: 'invalid-request',
    reason: message,
    diagnostics: {
      endpoint,
      requestId: opts.requestId ?? '',
      sent: false,
      attempts: 0,
      durationMs: 0,
      code,
      evidence: code,
      message,
    },
  };
}

function entryRequest(format: BatchFormat, e: BatchEntry): TransferV2Request | undefined {
  const mode = e.transferMode ?? FORMAT_MODE[format] ?? 'banktransfer';
  const transferMode = V2_MODE[mode];
  if (!transferMode) return undefined;
  const beneficiary: V2Beneficiary = e.beneId
    ? { beneficiaryId: e.beneId }
    : {
        name: e.name ?? '',
        bankAccount: e.bankAccount,
        ifsc: e.ifsc,
        vpa: e.vpa,
        email: e.email,
        phone: e.phone,
      };
  return { transferId: e.transferId, amount: e.amount, transferMode, beneficiary, remarks: e.remarks };
}

/**
 * Transfers V2: client id, secret and x-api-version headers, snake_case bodies, numeric amounts,
 * the error object. Recovery is by transfer_id: an unclear answer is checked on
 * `GET /payout/transfers?transfer_id=`, and `*_already_exists` is a look-up, never a failure.
 */
export class V2Connector implements PayoutConnector {
  readonly api = 'v2' as const;

  constructor(private readonly client: ProviderClient) {}

  traits(kind: ConnectorKind): KindTraits {
    return kindTraits(this.api, kind);
  }

  async submitPayout<K extends ConnectorKind>(
    p: PayoutToSend<K>,
    opts: CallOptions,
  ): Promise<PayoutSubmitted> {
    switch (p.kind) {
      case 'standard_transfer': {
        const q = (p as PayoutToSend<'standard_transfer'>).request;
        return this.transfer(
          p,
          q.transferMode,
          { beneficiaryId: q.beneId },
          q.remarks,
          q.paymentInstrumentId,
          opts,
        );
      }
      case 'direct_transfer': {
        const q = (p as PayoutToSend<'direct_transfer'>).request;
        const d = q.beneDetails;
        return this.transfer(
          p,
          q.transferMode,
          {
            name: d.name,
            bankAccount: d.bankAccount,
            ifsc: d.ifsc,
            vpa: d.vpa,
            email: d.email,
            phone: d.phone,
            address: d.address1,
          },
          q.remarks,
          q.paymentInstrumentId,
          opts,
        );
      }
      default:
        return send(
          this.client,
          commonRequest(p as PayoutToSend<Exclude<ConnectorKind, 'standard_transfer' | 'direct_transfer'>>),
          opts,
        );
    }
  }

  private async transfer(
    p: PayoutToSend<ConnectorKind>,
    mode: TransferMode | undefined,
    beneficiary: V2Beneficiary,
    remarks: string | undefined,
    fundsourceId: string | undefined,
    opts: CallOptions,
  ): Promise<PayoutSubmitted> {
    const transferMode = V2_MODE[mode ?? 'banktransfer'];
    if (!transferMode) return { result: refused('transferV2', opts, WALLET, WALLET_MESSAGE) };
    return send(
      this.client,
      {
        name: 'transferV2',
        request: {
          transferId: p.transferId,
          amount: p.amount,
          transferMode,
          beneficiary,
          remarks,
          fundsourceId,
        },
      },
      opts,
    );
  }

  checkPayout(kind: ConnectorKind, transferId: string, opts: CallOptions): Promise<PayoutCheck> {
    return checkBy(this.traits(kind).status, this.client, transferId, opts);
  }

  async submitBatch(b: BatchToSend, opts: CallOptions): Promise<BatchSubmitted> {
    const transfers: TransferV2Request[] = [];
    for (const [i, e] of b.entries.entries()) {
      const t = entryRequest(b.batchFormat, e);
      if (!t)
        return { result: refused('batchTransferV2', opts, `transfers[${i}].${WALLET}`, WALLET_MESSAGE) };
      transfers.push(t);
    }
    const r = await this.client.call(
      'batchTransferV2',
      { batchTransferId: b.batchTransferId, transfers },
      opts,
    );
    const referenceId = 'data' in r ? (r.data?.cf_batch_transfer_id ?? undefined) : undefined;
    return { result: r, ...(referenceId ? { referenceId } : {}) };
  }

  async checkBatch(batchTransferId: string, opts: CallOptions): Promise<BatchCheck> {
    const r = await this.client.call('getBatchTransferStatusV2', { batchTransferId }, opts);
    if (r.outcome !== 'success' || !r.data) return { found: false, result: r };
    const ref = r.data.cf_batch_transfer_id;
    return {
      found: true,
      ...(ref ? { referenceId: ref } : {}),
      entries: r.data.transfers.map((t) => {
        const fee = transferFee(t.transfer_service_charge, t.transfer_service_tax);
        return {
          ...entryStatus(t.status, t.status_code),
          transferId: t.transfer_id,
          referenceId: providerTransferId(t) ?? null,
          utr: t.transfer_utr || null,
          reason: t.status_description ?? null,
          ...(fee ? { fee } : {}),
        };
      }),
    };
  }
}
