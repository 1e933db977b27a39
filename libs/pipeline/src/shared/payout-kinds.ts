import { type CommandData } from '#contracts';
import { type PayoutKind, type PayoutRow } from '#ledger';
import {
  type CallOptions,
  type EndpointName,
  type ProviderClient,
  providerTransferId,
  type ProviderResult,
} from '#provider-client';

/** What one provider call said, reduced to what the ledger records. */
export interface SubmissionResult {
  readonly result: ProviderResult<unknown>;
  readonly referenceId?: string;
  readonly svcTransferId?: string;
  readonly utr?: string;
  readonly statusCode?: string;
  /**
   * The stored request no longer decodes with its command's schema: nothing was sent, and a
   * person decides (an earlier attempt may have reached the provider).
   */
  readonly storedRequestInvalid?: true;
}

/** What a status endpoint said about a transfer it knows. */
export interface StatusAnswer {
  status?: string;
  reason?: string;
  utr?: string;
  referenceId?: string;
}

/** A status call: the transfer's state, or the call's own result when it gave none. */
export type StatusLookup =
  { found: true; answer: StatusAnswer } | { found: false; result: ProviderResult<unknown> };

/** How the provider is asked about a payout of one kind. */
export interface StatusCheckRule {
  readonly endpoint: Extract<EndpointName, 'getTransferStatus' | 'getTransferStatusV2'>;
  readonly ask: (client: ProviderClient, transferId: string, opts: CallOptions) => Promise<StatusLookup>;
}

/** A count a kind uses up when it is accepted; past the limit the payout is rejected at intake. */
export type KindQuota = 'daily_withdrawal';

/** The data of a payout command of kind K, secrets included: what its `send` gets once decoded. */
export type KindRequest<K extends PayoutKind> = CommandData<`payout.${K}`>;

/** Everything the pipeline does differently per kind of payout. */
export interface KindRules<K extends PayoutKind> {
  /** The initiation endpoint. */
  readonly endpoint: EndpointName;
  /** Sends the payout, with the row's transferId every time: a re-send is deduplicated, never a second payment. */
  readonly send: (
    client: ProviderClient,
    request: KindRequest<K>,
    row: PayoutRow,
    opts: CallOptions,
  ) => Promise<SubmissionResult>;
  /** How to ask the provider about it; null: it cannot be asked (a person confirms it). */
  readonly status: StatusCheckRule | null;
  /**
   * Whether the provider recognises a repeat of this kind's id ("already exists", a used token),
   * so that re-sending the same id after an unclear answer can never pay twice. Where it does not,
   * a payout in doubt goes to a person.
   */
  readonly resendIsSafe: boolean;
  /**
   * Whether a SUCCESS may still be reversed by the bank and a status endpoint would say so: such
   * SUCCESS rows are checked for a while (the reversal watch).
   */
  readonly reversalWatch: boolean;
  /** The quota an accepted payout of this kind uses up; null: none. */
  readonly quota: KindQuota | null;
}

/** One row per kind: the compiler refuses a kind without a row, and a row without a column. */
export type KindTable = { readonly [K in PayoutKind]: KindRules<K> };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A status field: empty text says nothing. */
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A legacy initiation's answer, with the provider's reference and UTR when it gave them. */
async function legacySent(call: Promise<ProviderResult<unknown>>): Promise<SubmissionResult> {
  const r = await call;
  const data = 'data' in r ? (r.data as { referenceId?: unknown; utr?: unknown } | undefined) : undefined;
  return { result: r, referenceId: str(data?.referenceId), utr: str(data?.utr) || undefined };
}

/** Legacy getTransferStatus: every kind made through the legacy API. */
const legacyStatus: StatusCheckRule = {
  endpoint: 'getTransferStatus',
  async ask(client, transferId, opts) {
    const r = await client.getTransferStatus({ transferId }, opts);
    const t = 'data' in r ? r.data : undefined;
    if (!t) return { found: false, result: r };
    return {
      found: true,
      answer: {
        status: t.status,
        reason: text(t.reason),
        utr: text(t.utr),
        referenceId: text(t.referenceId),
      },
    };
  },
};

/** v2 GET /payout/transfers: for what the v2 API made. */
const v2Status: StatusCheckRule = {
  endpoint: 'getTransferStatusV2',
  async ask(client, transferId, opts) {
    const r = await client.getTransferStatusV2({ transferId }, opts);
    // A status query's outcome is the transfer's own state; what matters is whether it has data.
    const t = 'data' in r ? r.data : undefined;
    if (!t) return { found: false, result: r };
    return {
      found: true,
      answer: { status: t.status, reason: text(t.status_description), utr: text(t.transfer_utr) },
    };
  },
};

/**
 * The payout kinds. A new kind is a row here (plus its adapter in the provider client and its
 * command in the contracts); `payout-kinds.spec.ts` walks every row.
 */
export const PAYOUT_KINDS: KindTable = {
  standard_transfer: {
    endpoint: 'requestTransfer',
    send: (client, q, row, opts) =>
      legacySent(
        client.requestTransfer(
          {
            transferId: row.transferId,
            beneId: q.beneId,
            amount: row.amount,
            transferMode: q.transferMode,
            paymentInstrumentId: q.paymentInstrumentId,
            remarks: q.remarks,
          },
          opts,
        ),
      ),
    status: legacyStatus,
    resendIsSafe: true,
    reversalWatch: true,
    quota: null,
  },
  direct_transfer: {
    endpoint: 'directTransfer',
    send: (client, q, row, opts) =>
      legacySent(
        client.directTransfer(
          {
            transferId: row.transferId,
            amount: row.amount,
            transferMode: q.transferMode,
            paymentInstrumentId: q.paymentInstrumentId,
            beneDetails: q.beneDetails,
          },
          opts,
        ),
      ),
    status: legacyStatus,
    resendIsSafe: true,
    reversalWatch: true,
    quota: null,
  },
  card_payout: {
    endpoint: 'cardpay',
    send: (client, q, row, opts) =>
      legacySent(
        client.cardpay(
          {
            transferId: row.transferId,
            amount: row.amount,
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
      ),
    status: legacyStatus,
    resendIsSafe: true,
    reversalWatch: true,
    quota: null,
  },
  validated_upi_payout: {
    endpoint: 'processValidatedPayout',
    async send(client, q, row, opts) {
      const r = await client.processValidatedPayout(
        {
          transferId: row.transferId,
          transferAmount: row.amount,
          transferToken: q.transferToken,
          transferMode: 'upi',
          transferRemarks: q.transferRemarks,
          fundsourceId: q.fundsourceId,
        },
        opts,
      );
      const t = 'data' in r ? r.data : undefined;
      return {
        result: r,
        svcTransferId: t ? providerTransferId(t) : undefined,
        utr: str(t?.transfer_utr),
        statusCode: str(t?.status_code),
      };
    },
    status: v2Status,
    resendIsSafe: true,
    // No documented reversal of a v2 UPI payout (ADR 0008).
    reversalWatch: false,
    quota: null,
  },
  internal_transfer: {
    endpoint: 'internalTransfer',
    async send(client, q, row, opts) {
      const r = await client.internalTransfer(
        { transferId: row.transferId, amount: row.amount, rechargeAccount: q.rechargeAccount },
        opts,
      );
      return { result: r };
    },
    status: legacyStatus,
    // No documented duplicate answer: never re-sent; in doubt it is settled by status (FAILED
    // not_received_by_provider once still unknown after NOT_FOUND_SETTLE_MS).
    resendIsSafe: false,
    reversalWatch: true,
    quota: null,
  },
  self_withdrawal: {
    endpoint: 'selfWithdrawal',
    async send(client, q, row, opts) {
      const r = await client.selfWithdrawal(
        { withdrawalId: row.transferId, amount: row.amount, remarks: q.remarks },
        opts,
      );
      return { result: r };
    },
    // The status of a withdrawal is only in the provider's dashboard.
    status: null,
    resendIsSafe: false,
    reversalWatch: false,
    // Three a day per account (Asia/Kolkata), counted at intake.
    quota: 'daily_withdrawal',
  },
};

export const PAYOUT_KIND_NAMES = Object.keys(PAYOUT_KINDS) as readonly PayoutKind[];

/** Kinds whose SUCCESS rows the ledger schedules for the reversal watch. */
export const REVERSAL_WATCH_KINDS: readonly PayoutKind[] = PAYOUT_KIND_NAMES.filter(
  (k) => PAYOUT_KINDS[k].reversalWatch,
);

/** Whether the provider can be asked about a payout of this kind. */
export function hasStatusCheck(kind: PayoutKind): boolean {
  return PAYOUT_KINDS[kind].status !== null;
}
