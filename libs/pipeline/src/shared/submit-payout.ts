import { type Diagnostics, type ProviderClient, type ProviderResult } from '#provider-client';
import { type PayoutRow, type SecretsCipher } from '#ledger';

/** What one provider call said, reduced to what the ledger records. */
export interface SubmissionResult {
  readonly result: ProviderResult<unknown>;
  readonly referenceId?: string;
  readonly svcTransferId?: string;
  readonly utr?: string;
  readonly statusCode?: string;
}

function secretsOf(row: PayoutRow, cipher: SecretsCipher): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, sealed] of Object.entries(row.requestSecrets ?? {})) out[k] = cipher.open(sealed);
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function legacyRefs(r: ProviderResult<unknown>): Pick<SubmissionResult, 'referenceId' | 'utr'> {
  const data = 'data' in r ? (r.data as { referenceId?: unknown; utr?: unknown } | undefined) : undefined;
  return { referenceId: str(data?.referenceId), utr: str(data?.utr) || undefined };
}

/**
 * Sends one payout with the same transferId every time it is called: a re-send after a crash or
 * an unclear answer is deduplicated by the provider ("already exists"), never a second payment.
 */
export async function submitPayout(
  client: ProviderClient,
  cipher: SecretsCipher,
  row: PayoutRow,
): Promise<SubmissionResult> {
  const q = row.request;
  const opts = { accountId: row.accountId, requestId: row.requestId ?? `${row.transferId}:${row.attempt}` };
  switch (row.kind) {
    case 'standard_transfer': {
      const r = await client.requestTransfer(
        {
          transferId: row.transferId,
          beneId: String(q['beneId']),
          amount: row.amount,
          transferMode: q['transferMode'] as never,
          paymentInstrumentId: str(q['paymentInstrumentId']),
          remarks: str(q['remarks']),
        },
        opts,
      );
      return { result: r, ...legacyRefs(r) };
    }
    case 'direct_transfer': {
      const r = await client.directTransfer(
        {
          transferId: row.transferId,
          amount: row.amount,
          transferMode: q['transferMode'] as never,
          paymentInstrumentId: str(q['paymentInstrumentId']),
          beneDetails: q['beneDetails'] as never,
        },
        opts,
      );
      return { result: r, ...legacyRefs(r) };
    }
    case 'card_payout': {
      const s = secretsOf(row, cipher);
      const r = await client.cardpay(
        {
          transferId: row.transferId,
          amount: row.amount,
          token: s['cardToken'] ?? '',
          cardType: q['cardType'] as never,
          networkType: q['networkType'] as never,
          cryptogram: s['cryptogram'],
          tokenExpiry: str(q['tokenExpiry']),
          tokenPANSequenceNumber: str(q['tokenPANSequenceNumber']),
          name: str(q['name']),
          remarks: str(q['remarks']),
        },
        opts,
      );
      return { result: r, ...legacyRefs(r) };
    }
    case 'validated_upi_payout': {
      const s = secretsOf(row, cipher);
      const r = await client.processValidatedPayout(
        {
          transferId: row.transferId,
          transferAmount: row.amount,
          transferToken: s['transferToken'] ?? '',
          transferMode: 'upi',
          transferRemarks: str(q['transferRemarks']),
          fundsourceId: str(q['fundsourceId']),
        },
        opts,
      );
      const t = 'data' in r ? (r.data as Record<string, unknown> | undefined) : undefined;
      return {
        result: r,
        svcTransferId: str(t?.['svc_transfer_id']),
        utr: str(t?.['transfer_utr']),
        statusCode: str(t?.['status_code']),
      };
    }
    case 'internal_transfer': {
      const r = await client.internalTransfer(
        { transferId: row.transferId, amount: row.amount, rechargeAccount: String(q['rechargeAccount']) },
        opts,
      );
      return { result: r };
    }
    case 'self_withdrawal': {
      const r = await client.selfWithdrawal(
        { withdrawalId: row.transferId, amount: row.amount, remarks: str(q['remarks']) },
        opts,
      );
      return { result: r };
    }
  }
}

/** Raw provider codes kept on the row for support (already scrubbed by the client). */
export function errorOf(d: Diagnostics): Record<string, unknown> {
  return {
    endpoint: d.endpoint,
    sent: d.sent,
    httpStatus: d.httpStatus,
    status: d.status,
    subCode: d.subCode,
    code: d.code,
    message: d.message,
    errorCode: d.errorCode,
  };
}
