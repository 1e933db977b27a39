import { type TransferFee } from '../core/fees.js';
/** Webhook shapes the sandbox sends (provider-facts.md, "Webhooks"; provider-v2.md, "Webhooks V2"). */
export type WebhookVersion = 'v1' | 'v2';

export interface WebhookTarget {
  readonly url: string;
  readonly version: WebhookVersion;
}

export const TRANSFER_EVENTS = [
  'TRANSFER_ACKNOWLEDGED',
  'TRANSFER_SUCCESS',
  'TRANSFER_FAILED',
  'TRANSFER_REVERSED',
  'TRANSFER_REJECTED',
  // v2 only: an approval given in the dashboard (provider-facts.md, "Long waits").
  'TRANSFER_APPROVED',
] as const;
export type TransferEventType = (typeof TRANSFER_EVENTS)[number];

/** Events only the v1 format has. */
export const ACCOUNT_EVENTS = ['CREDIT_CONFIRMATION', 'BENEFICIARY_INCIDENT', 'LOW_BALANCE_ALERT'] as const;
export type AccountEventType = (typeof ACCOUNT_EVENTS)[number];

export type WebhookEventType = TransferEventType | AccountEventType | 'BULK_TRANSFER_REJECTED';

/** A transfer's state change, as both formats carry it. */
export interface TransferEvent {
  readonly kind: 'transfer';
  readonly type: TransferEventType;
  /** Sandbox-clock milliseconds of the state change. */
  readonly at: number;
  readonly transferId: string;
  readonly referenceId: string;
  readonly utr: string;
  readonly acknowledged: 0 | 1;
  readonly reason: string;
  readonly status: string;
  /** Decimal rupees, 2 places. */
  readonly amount: string;
  /** v2 `status_code` (SENT_TO_BENEFICIARY, COMPLETED, a failure code); `status` when absent. */
  readonly statusCode?: string;
  /**
   * The transfer, when the provider made one (a refused batch entry has none): v2 sends it as
   * the v2 transfer object, as the status endpoint shows it at this step.
   */
  readonly record?: TransferFacts;
}

/**
 * What v2 shows of a transfer besides the event's own fields (a TransferRecord has them; named
 * here so this module does not import the sandbox's state, which imports it).
 */
export interface TransferFacts {
  readonly svcTransferId: string;
  readonly mode: string;
  readonly beneId: string;
  readonly bankAccount: string;
  readonly ifsc: string;
  readonly vpa: string;
  readonly paymentInstrumentId: string;
  readonly addedOn: number;
  /** The provider's fee on the transfer (core/fees.ts), shown once paid. */
  readonly fee?: TransferFee | undefined;
}

/** v2 only: a batch none of whose entries could be processed. */
export interface BulkRejectedEvent {
  readonly kind: 'bulk';
  readonly type: 'BULK_TRANSFER_REJECTED';
  readonly at: number;
  readonly batchTransferId: string;
  /** v2 `cf_batch_transfer_id`: the provider's id of the batch. */
  readonly svcBatchTransferId?: string;
  readonly reason: string;
}

/** v1 only: account-level notices. `fields` are sent beside the seven standard v1 fields. */
export interface AccountEvent {
  readonly kind: 'account';
  readonly type: AccountEventType;
  readonly at: number;
  readonly utr: string;
  readonly reason: string;
  readonly fields: Readonly<Record<string, string>>;
}

export type WebhookEvent = TransferEvent | BulkRejectedEvent | AccountEvent;

/** Whether the provider sends this event in this format. */
export function eventInVersion(e: WebhookEvent, version: WebhookVersion): boolean {
  if (e.kind === 'transfer') return e.type !== 'TRANSFER_APPROVED' || version === 'v2';
  return e.kind === 'bulk' ? version === 'v2' : version === 'v1';
}

/** What the delivery-side faults do; rates are shares 0..1 drawn from a seeded generator. */
export interface WebhookFaults {
  /** Share of webhooks sent twice (the same payload, one right after the other). */
  readonly duplicateRate: number;
  /** Hold deliveries this long (sandbox clock), then send what was held in a shuffled order. */
  readonly reorderWindowMs: number;
  /** Delay before the first attempt of every webhook (sandbox clock). */
  readonly delayMs: number;
  /** Share of webhooks signed with the wrong key (recorded as `signatureValid: false`). */
  readonly badSignatureRate: number;
  /** Share of webhooks never sent (the lost webhook). */
  readonly dropRate: number;
  /** Seed of the generator; the same seed faults the same webhooks. */
  readonly seed: number;
}

export const NO_WEBHOOK_FAULTS: WebhookFaults = {
  duplicateRate: 0,
  reorderWindowMs: 0,
  delayMs: 0,
  badSignatureRate: 0,
  dropRate: 0,
  seed: 1,
};

export type DeliveryOutcome = 'delivered' | 'failed' | 'dropped' | 'skipped';

/** One attempt (or a webhook that was never attempted: dropped, or skipped while disabled). */
export interface DeliveryAttempt {
  /** Same for every attempt (and the duplicate) of one webhook. */
  readonly id: number;
  readonly event: WebhookEventType;
  readonly transferId: string;
  readonly batchTransferId: string;
  /** 1 for the first try; 0 when never attempted. */
  readonly attempt: number;
  readonly outcome: DeliveryOutcome;
  readonly httpStatus: number | undefined;
  readonly error: string | undefined;
  readonly signatureValid: boolean;
  readonly duplicate: boolean;
  /** Sandbox clock. */
  readonly at: number;
}
