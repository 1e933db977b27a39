import { providerTransferId } from '../adapters/v2-transfer.js';
import { type ProviderResult } from '../core/outcome.js';
import { readProviderStatus } from '../core/status-mapping.js';
import { transferFee } from '../core/transfer-fee.js';
import { type EndpointName, type RequestOf } from '../endpoints/adapter-registry.js';
import { type CallOptions, type ProviderClient } from '../provider-client.js';
import {
  type ConnectorKind,
  type PayoutCheck,
  type PayoutSubmitted,
  type PayoutToSend,
} from './connector.port.js';

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A status field: empty text says nothing. */
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The endpoints a payout is first sent through (KindTraits.initiation). */
export type Initiation =
  | 'requestTransfer'
  | 'directTransfer'
  | 'cardpay'
  | 'processValidatedPayout'
  | 'internalTransfer'
  | 'selfWithdrawal'
  | 'transferV2';

/** One initiation to send: the endpoint and its request, typed from the endpoint's registry row. */
export type Outgoing = {
  [N in Initiation]: { readonly name: N; readonly request: RequestOf<N> };
}[Initiation];

/** How an initiation's answer is read: what the ledger records of it. */
const READ: { readonly [N in Initiation]: (r: ProviderResult<unknown>) => PayoutSubmitted } = {
  requestTransfer: legacySent,
  directTransfer: legacySent,
  cardpay: legacySent,
  internalTransfer: (r) => ({ result: r, ...codeOf(r) }),
  selfWithdrawal: (r) => ({ result: r, ...codeOf(r) }),
  processValidatedPayout: v2Sent,
  transferV2: v2Sent,
};

/** Sends one initiation and reads its answer: one call, one reading. */
export async function send(
  client: ProviderClient,
  out: Outgoing,
  opts: CallOptions,
): Promise<PayoutSubmitted> {
  // Outgoing pairs each name with its request type; the compiler cannot follow the pair through a union.
  const r = await client.call(out.name as 'transferV2', out.request as RequestOf<'transferV2'>, opts);
  return READ[out.name](r);
}

/** A legacy initiation's answer, with the provider's reference and UTR when it gave them. */
function legacySent(r: ProviderResult<unknown>): PayoutSubmitted {
  const data = 'data' in r ? (r.data as { referenceId?: unknown; utr?: unknown } | undefined) : undefined;
  return {
    result: r,
    referenceId: str(data?.referenceId),
    utr: str(data?.utr) || undefined,
    ...codeOf(r),
    ...waitOf(r),
  };
}

/** A v2 initiation's answer: the transfer object, whose own status may already be final. */
function v2Sent(r: ProviderResult<unknown>): PayoutSubmitted {
  const t =
    'data' in r
      ? (r.data as
          | ({
              status_code?: string | null;
              transfer_utr?: string | null;
              transfer_service_charge?: string | null;
              transfer_service_tax?: string | null;
            } & Parameters<typeof providerTransferId>[0])
          | undefined)
      : undefined;
  const fee = transferFee(t?.transfer_service_charge, t?.transfer_service_tax);
  return {
    result: r,
    svcTransferId: t ? providerTransferId(t) : undefined,
    utr: str(t?.transfer_utr),
    statusCode: str(t?.status_code),
    ...waitOf(r),
    ...(fee ? { fee } : {}),
  };
}

/** A v1 answer's code (subCode), kept as the payout's status code when it is accepted. */
function codeOf(r: ProviderResult<unknown>): Pick<PayoutSubmitted, 'statusCode'> {
  return r.diagnostics.evidence === undefined ? {} : { statusCode: r.diagnostics.evidence };
}

/** The sub-state a `pending` answer carries, as a field to spread (absent when none). */
function waitOf(r: ProviderResult<unknown>): Pick<PayoutSubmitted, 'subState'> {
  return r.outcome === 'pending' && r.subState ? { subState: r.subState } : {};
}

/** The request of a kind both generations send the same way. */
export function commonRequest(
  p: PayoutToSend<Exclude<ConnectorKind, 'standard_transfer' | 'direct_transfer'>>,
): Outgoing {
  switch (p.kind) {
    case 'card_payout': {
      const q = (p as PayoutToSend<'card_payout'>).request;
      return {
        name: 'cardpay',
        request: {
          transferId: p.transferId,
          amount: p.amount,
          token: q.cardToken,
          cardType: q.cardType,
          networkType: q.networkType,
          cryptogram: q.cryptogram,
          tokenExpiry: q.tokenExpiry,
          tokenPANSequenceNumber: q.tokenPANSequenceNumber,
          name: q.name,
          remarks: q.remarks,
        },
      };
    }
    case 'validated_upi_payout': {
      const q = (p as PayoutToSend<'validated_upi_payout'>).request;
      return {
        name: 'processValidatedPayout',
        request: {
          transferId: p.transferId,
          transferAmount: p.amount,
          transferToken: q.transferToken,
          transferMode: 'upi',
          transferRemarks: q.transferRemarks,
          fundsourceId: q.fundsourceId,
        },
      };
    }
    case 'internal_transfer': {
      const q = (p as PayoutToSend<'internal_transfer'>).request;
      return {
        name: 'internalTransfer',
        request: { transferId: p.transferId, amount: p.amount, rechargeAccount: q.rechargeAccount },
      };
    }
    case 'self_withdrawal': {
      const q = (p as PayoutToSend<'self_withdrawal'>).request;
      return {
        name: 'selfWithdrawal',
        request: { withdrawalId: p.transferId, amount: p.amount, remarks: q.remarks },
      };
    }
  }
}

/** Asks the kind's status endpoint about our transferId (never by a re-send). */
export function checkBy(
  endpoint: EndpointName | null,
  client: ProviderClient,
  transferId: string,
  opts: CallOptions,
): Promise<PayoutCheck> {
  switch (endpoint) {
    case 'getTransferStatus':
      return legacyCheck(client, transferId, opts);
    case 'getTransferStatusV2':
      return v2Check(client, transferId, opts);
    default:
      // The pipeline asks only where traits name a status endpoint; anything else is a wiring error.
      return Promise.reject(new Error(`no status check through ${String(endpoint)}`));
  }
}

/** v1 getTransferStatus, by our transferId. */
async function legacyCheck(
  client: ProviderClient,
  transferId: string,
  opts: CallOptions,
): Promise<PayoutCheck> {
  const r = await client.call('getTransferStatus', { transferId }, opts);
  const t = 'data' in r ? r.data : undefined;
  if (!t) return { found: false, result: r };
  return {
    found: true,
    answer: {
      ...readProviderStatus(t.status),
      raw: t.status,
      reason: text(t.reason),
      utr: text(t.utr),
      referenceId: text(t.referenceId),
      amount: text(t.amount),
      beneId: text(t.beneId),
    },
  };
}

/** v2 `GET /payout/transfers?transfer_id=`: a status query's outcome is the transfer's own state. */
async function v2Check(client: ProviderClient, transferId: string, opts: CallOptions): Promise<PayoutCheck> {
  const r = await client.call('getTransferStatusV2', { transferId }, opts);
  const t = 'data' in r ? r.data : undefined;
  if (!t) return { found: false, result: r };
  const fee = transferFee(t.transfer_service_charge, t.transfer_service_tax);
  return {
    found: true,
    answer: {
      ...readProviderStatus(t.status, t.status_code),
      raw: t.status,
      reason: text(t.status_description),
      utr: text(t.transfer_utr),
      amount: text(t.transfer_amount),
      beneId: text(t.beneficiary_details?.beneficiary_id),
      svcTransferId: providerTransferId(t),
      ...(fee ? { fee } : {}),
    },
  };
}
