import { providerTransferId } from '../adapters/v2-transfer.js';
import { type ProviderResult } from '../core/outcome.js';
import { type CallOptions, type ProviderClient } from '../provider-client.js';
import {
  type ConnectorKind,
  type PayoutCheck,
  type PayoutSubmitted,
  type PayoutToSend,
} from './connector.port.js';
import { readProviderStatus } from './status-mapping.js';

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A status field: empty text says nothing. */
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A legacy initiation's answer, with the provider's reference and UTR when it gave them. */
export async function legacySent(call: Promise<ProviderResult<unknown>>): Promise<PayoutSubmitted> {
  const r = await call;
  const data = 'data' in r ? (r.data as { referenceId?: unknown; utr?: unknown } | undefined) : undefined;
  return {
    result: r,
    referenceId: str(data?.referenceId),
    utr: str(data?.utr) || undefined,
    ...waitOf(r),
  };
}

/** A v2 initiation's answer: the transfer object, whose own status may already be final. */
export async function v2Sent(
  call: Promise<
    ProviderResult<
      { status_code?: string | null; transfer_utr?: string | null } & Parameters<typeof providerTransferId>[0]
    >
  >,
): Promise<PayoutSubmitted> {
  const r = await call;
  const t = 'data' in r ? r.data : undefined;
  return {
    result: r,
    svcTransferId: t ? providerTransferId(t) : undefined,
    utr: str(t?.transfer_utr),
    statusCode: str(t?.status_code),
    ...waitOf(r),
  };
}

/** The sub-state a `pending` answer carries, as a field to spread (absent when none). */
function waitOf(r: ProviderResult<unknown>): Pick<PayoutSubmitted, 'subState'> {
  return r.outcome === 'pending' && r.subState ? { subState: r.subState } : {};
}

/** v1 getTransferStatus, by our transferId. */
export async function legacyCheck(
  client: ProviderClient,
  transferId: string,
  opts: CallOptions,
): Promise<PayoutCheck> {
  const r = await client.getTransferStatus({ transferId }, opts);
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
export async function v2Check(
  client: ProviderClient,
  transferId: string,
  opts: CallOptions,
): Promise<PayoutCheck> {
  const r = await client.getTransferStatusV2({ transferId }, opts);
  const t = 'data' in r ? r.data : undefined;
  if (!t) return { found: false, result: r };
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
    },
  };
}

/** The kinds both generations send the same way. */
export function sendCommon(
  client: ProviderClient,
  p: PayoutToSend<Exclude<ConnectorKind, 'standard_transfer' | 'direct_transfer'>>,
  opts: CallOptions,
): Promise<PayoutSubmitted> {
  switch (p.kind) {
    case 'card_payout': {
      const q = (p as PayoutToSend<'card_payout'>).request;
      return legacySent(
        client.cardpay(
          {
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
          opts,
        ),
      );
    }
    case 'validated_upi_payout': {
      const q = (p as PayoutToSend<'validated_upi_payout'>).request;
      return v2Sent(
        client.processValidatedPayout(
          {
            transferId: p.transferId,
            transferAmount: p.amount,
            transferToken: q.transferToken,
            transferMode: 'upi',
            transferRemarks: q.transferRemarks,
            fundsourceId: q.fundsourceId,
          },
          opts,
        ),
      );
    }
    case 'internal_transfer': {
      const q = (p as PayoutToSend<'internal_transfer'>).request;
      return client
        .internalTransfer(
          { transferId: p.transferId, amount: p.amount, rechargeAccount: q.rechargeAccount },
          opts,
        )
        .then((r) => ({ result: r }));
    }
    case 'self_withdrawal': {
      const q = (p as PayoutToSend<'self_withdrawal'>).request;
      return client
        .selfWithdrawal({ withdrawalId: p.transferId, amount: p.amount, remarks: q.remarks }, opts)
        .then((r) => ({ result: r }));
    }
  }
}
