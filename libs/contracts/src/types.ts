import { type CommandType } from './schemas/commands.schema.js';
import { type QueryType } from './schemas/queries.schema.js';
import { type ProviderSubState } from './schemas/events.schema.js';

/** Decimal string, e.g. "1250.50". Never a JS number. */
export type Amount = string;

/**
 * The provider's fee of one transfer (issue 32): its service charge and the tax on it, decimal
 * rupees as text (never a float). Known only where the provider says it (v2 transfer objects once
 * charged); `tax` absent: the provider sent no tax with the charge.
 */
export interface TransferFee {
  charge: Amount;
  tax?: Amount;
}
export type TransferMode = 'banktransfer' | 'neft' | 'imps' | 'rtgs' | 'upi' | 'wallet_a' | 'wallet_b';
export type BatchFormat = 'BENEFICIARY_ID' | 'BANK_ACCOUNT' | 'UPI' | 'WALLET_A' | 'WALLET_B';

export interface StandardTransferData {
  transferId: string;
  beneId: string;
  amount: Amount;
  transferMode?: TransferMode;
  paymentInstrumentId?: string;
  remarks?: string;
}

export interface BeneDetails {
  name: string;
  phone?: string;
  email?: string;
  address1?: string;
  bankAccount?: string;
  ifsc?: string;
  vpa?: string;
}

export interface DirectTransferData {
  transferId: string;
  amount: Amount;
  beneDetails: BeneDetails;
  transferMode?: TransferMode;
  paymentInstrumentId?: string;
  remarks?: string;
}

export interface ValidatedUpiPayoutData {
  transferId: string;
  amount: Amount;
  transferToken: string;
  transferRemarks?: string;
  fundsourceId?: string;
}

export interface CardPayoutData {
  transferId: string;
  amount: Amount;
  cardToken: string;
  cardType: 'DEBIT' | 'CREDIT';
  networkType?: 'VISA' | 'MASTERCARD';
  cryptogram?: string;
  tokenExpiry?: string;
  tokenPANSequenceNumber?: string;
  name?: string;
  remarks?: string;
}

export interface BatchEntry {
  transferId: string;
  amount: Amount;
  beneId?: string;
  transferMode?: 'banktransfer' | 'upi' | 'wallet_a' | 'wallet_b';
  bankAccount?: string;
  ifsc?: string;
  vpa?: string;
  name?: string;
  email?: string;
  phone?: string;
  remarks?: string;
}

export interface BatchTransferData {
  batchTransferId: string;
  batchFormat: BatchFormat;
  entries: BatchEntry[];
  deleteBene?: boolean;
}

export interface InternalTransferData {
  transferId: string;
  amount: Amount;
  rechargeAccount: string;
}

export interface SelfWithdrawalData {
  withdrawalId: string;
  amount: Amount;
  remarks?: string;
}

interface CommandDataByType {
  'payout.standard_transfer': StandardTransferData;
  'payout.direct_transfer': DirectTransferData;
  'payout.validated_upi_payout': ValidatedUpiPayoutData;
  'payout.card_payout': CardPayoutData;
  'payout.batch_transfer': BatchTransferData;
  'payout.internal_transfer': InternalTransferData;
  'payout.self_withdrawal': SelfWithdrawalData;
}

export type Command = {
  [T in CommandType]: { type: T; accountId?: string; requestId?: string; data: CommandDataByType[T] };
}[CommandType];

export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

/** The data of one command type. */
export type CommandData<T extends CommandType> = CommandDataByType[T];

export interface BeneIdQueryData {
  bankAccount: string;
  ifsc: string;
}
export interface BeneHistoryQueryData {
  beneId: string;
  startDate?: string;
  endDate?: string;
  perPage?: number;
  page?: number;
}
export interface SdkTokenQueryData {
  appId: string;
  product?: 'VKYC';
  metadata: { vkycRequestId: number | string; [k: string]: unknown };
  authenticatedUser: { identifierType: string; identifierValue: number | string };
}

export interface BeneficiaryIdData {
  beneId: string;
}
export interface BeneficiaryCreateData {
  beneId: string;
  name: string;
  bankAccount?: string;
  ifsc?: string;
  vpa?: string;
  email?: string;
  phone?: string;
  address1?: string;
  city?: string;
  state?: string;
  pincode?: string;
}

interface QueryDataByType {
  'query.bene_id': BeneIdQueryData;
  'query.bene_history': BeneHistoryQueryData;
  'query.sdk_token': SdkTokenQueryData;
  'query.beneficiary': BeneficiaryIdData;
  'beneficiary.create': BeneficiaryCreateData;
  'beneficiary.delete': BeneficiaryIdData;
}

export type Query = {
  [T in QueryType]: {
    type: T;
    queryId: string;
    replyTo?: string;
    accountId?: string;
    requestId?: string;
    data: QueryDataByType[T];
  };
}[QueryType];

/** The data of one query type. */
export type QueryData<T extends QueryType> = QueryDataByType[T];

export interface QueryReply {
  queryId: string;
  type: QueryType;
  ok: boolean;
  /** The provider API generation that answered a beneficiary message. */
  generation?: 'v1' | 'v2';
  data?: Record<string, unknown>;
  error?: { code: string; message: string; providerCode?: string };
}

/** A type alias (not an interface) so it is assignable to generic JSON records such as the outbox payload. */
export type EventData = {
  accountId: string;
  id: string;
  kind: string;
  /** A PayoutStatus, a BatchStatus, or a batch entry's provider status. */
  status: string;
  version: number;
  amount?: Amount;
  statusCode?: string;
  reason?: string;
  referenceId?: string;
  svcTransferId?: string;
  utr?: string;
  batchTransferId?: string;
  /** The provider API generation that carried it (the account's at acceptance). */
  providerApi?: 'v1' | 'v2';
  /** payouts.payout.* and payouts.batch_item.*: where the payout or entry waits at the provider (issue 29). */
  subState?: ProviderSubState;
  /** payouts.payout.succeeded and .reversed: the provider's fee, when known (issue 32). */
  fee?: TransferFee;
  beneficiary?: { beneId?: string; bankAccount?: string; ifsc?: string; vpa?: string };
  totals?: { entries?: number; succeeded?: number; failed?: number; pending?: number };
  /** payouts.payout.contradicted only (ADR 0018). */
  contradiction?: {
    kind: 'paid_after_failure' | 'pending_after_failure' | 'failed_after_success';
    published: string;
    observed: string;
    source: 'reconciler' | 'webhook';
    observedCode?: string;
  };
  /**
   * payouts.command.conflict with reason transfer_id_in_use only (issue 29): the transfer id the
   * refused command would send, and what holds it (a single payout, or an entry of a batch).
   */
  heldBy?: { transferId: string; by: 'payout' | 'batch_entry'; batchTransferId?: string };
  requestId?: string;
  occurredAt?: string;
};

export type PayoutEvent = {
  specversion: '1.0';
  id: string;
  type: string;
  source: string;
  time: string;
  subject: string;
  datacontenttype: 'application/json';
  data: EventData;
};
