import { type PayoutStatus } from '#contracts';
import { mapProviderStatus, WEBHOOK_EVENT_STATUS } from '../core/status-mapping.js';
import { transferStatusMeaning } from '../core/transfer-statuses.js';

/*
 * What a kept webhook means, in the service's terms (issue 31): the pipeline stores a verified
 * webhook as the reader gave it (its event as sent, for identity and support) and asks this, never
 * the event name or the provider's status word itself, what it is about.
 */

/** The provider notices about the account, not a payout, in the service's words. */
export type ProviderNoticeKind = 'low_balance' | 'beneficiary_incident';

const NOTICES: Readonly<Record<string, ProviderNoticeKind>> = {
  LOW_BALANCE_ALERT: 'low_balance',
  BENEFICIARY_INCIDENT: 'beneficiary_incident',
};

/**
 * What a webhook says of the account's balance (issue 32): `low` (LOW_BALANCE_ALERT), `credited`
 * (CREDIT_CONFIRMATION, a top-up). Either way the balance has moved: the service reads it again.
 */
export type BalanceNotice = 'low' | 'credited';

const BALANCE_NOTICES: Readonly<Record<string, BalanceNotice>> = {
  LOW_BALANCE_ALERT: 'low',
  CREDIT_CONFIRMATION: 'credited',
};

/** The provider refused a whole batch (v2 BULK_TRANSFER_REJECTED, carrying the batch's ids). */
const BATCH_REFUSED = 'BULK_TRANSFER_REJECTED';

/**
 * The event types counted under their own metric label; any other verified type is `other`.
 * The provider's events as it names them (its dashboard and documents do), from the tables above.
 */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...Object.keys(WEBHOOK_EVENT_STATUS),
  'CREDIT_CONFIRMATION',
  ...Object.keys(NOTICES),
  BATCH_REFUSED,
];

/** The fields of a kept webhook the meaning reads (the ledger's WebhookFields). */
export interface KeptWebhookFields {
  /** The provider's status word, when the webhook carried one. */
  readonly status?: string;
  readonly statusCode?: string;
}

export type WebhookMeaning =
  /**
   * About one transfer's state. `announces`: the state it says the transfer reached; null: none
   * (an acknowledgement, which follows SUCCESS). `statusAgrees`: false when the webhook's own
   * status word says another state than its event. `evidence`: the provider's code or status to
   * keep on the payout with the state.
   */
  | {
      readonly about: 'transfer';
      readonly announces: PayoutStatus | null;
      readonly statusAgrees: boolean;
      readonly evidence?: string;
      /**
       * It announces a failure for the account's balance (v2 `FAILED`/`INSUFFICIENT_BALANCE`):
       * once applied, counted as a bounce (ProviderWebhooks.balanceRefused), nothing else.
       */
      readonly shortOfFunds?: true;
    }
  /** About a whole batch the provider refused: the batch is checked. */
  | { readonly about: 'batch' }
  /** About the account: a notice of its own. */
  | { readonly about: 'notice'; readonly notice: ProviderNoticeKind; readonly balance?: BalanceNotice }
  /**
   * Anything else (a sub-state hint says so in its fields; credit confirmations): nothing to
   * apply. `balance`: it says the account's balance moved (a credit).
   */
  | { readonly about: 'other'; readonly balance?: BalanceNotice };

/** The meaning of a kept webhook's event and fields. */
export function webhookMeaning(event: string, f: KeptWebhookFields): WebhookMeaning {
  const moved = Object.hasOwn(BALANCE_NOTICES, event) ? BALANCE_NOTICES[event] : undefined;
  const balance = moved ? { balance: moved } : {};
  if (Object.hasOwn(NOTICES, event)) return { about: 'notice', notice: NOTICES[event]!, ...balance };
  if (moved) return { about: 'other', balance: moved };
  if (event === BATCH_REFUSED) return { about: 'batch' };
  if (!Object.hasOwn(WEBHOOK_EVENT_STATUS, event)) return { about: 'other' };
  const announces = WEBHOOK_EVENT_STATUS[event] ?? null;
  const evidence = f.statusCode ?? f.status;
  const said = f.status === undefined ? undefined : transferStatusMeaning(f.status, f.statusCode);
  const short = announces === 'FAILED' && said?.outcome === 'failed' && said.shortOfFunds === true;
  return {
    about: 'transfer',
    announces,
    statusAgrees: f.status === undefined || mapProviderStatus(f.status) === announces,
    ...(evidence === undefined ? {} : { evidence }),
    ...(short ? { shortOfFunds: true as const } : {}),
  };
}

/** The metric label of a verified event type: its own when listed, else `other`. */
export function webhookEventLabel(event: string): string {
  return WEBHOOK_EVENT_TYPES.includes(event) ? event : 'other';
}
