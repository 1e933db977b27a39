import { type PayoutStatus, type ProviderSubState } from '#contracts';
import { subStateOf, transferStatusMeaning } from '../core/transfer-statuses.js';

/**
 * A provider transfer status (v1 getTransferStatus, batch entries, v2 and its status_code) in the
 * ledger's terms, read from the one table the adapters classify with (core/transfer-statuses.ts).
 * `status` undefined: a status we do not know or one in doubt (ERROR): kept in last_error
 * (providerStatus), counted, logged, and the row is polled again: never dropped, never guessed,
 * never a negative state.
 */
export function readProviderStatus(
  raw: string | undefined | null,
  code?: string | null,
): { readonly status?: PayoutStatus; readonly subState?: ProviderSubState } {
  const m = transferStatusMeaning(raw, code);
  const subState = subStateOf(m);
  return { ...(m.ledger ? { status: m.ledger } : {}), ...(subState ? { subState } : {}) };
}

export function mapProviderStatus(
  raw: string | undefined | null,
  code?: string | null,
): PayoutStatus | undefined {
  return transferStatusMeaning(raw, code).ledger;
}

/**
 * A batch entry's status: the ledger's when the provider's maps to one, else the provider's word,
 * upper-cased (in doubt: the entry stays open and its batch is asked again, never settled on it).
 */
export function entryStatus(
  raw: string,
  code?: string | null,
): { readonly status: string; readonly subState?: ProviderSubState } {
  const r = readProviderStatus(raw, code);
  return { status: r.status ?? raw.toUpperCase(), ...(r.subState ? { subState: r.subState } : {}) };
}

/**
 * The state a transfer webhook event announces (v1 and v2 share the event names);
 * TRANSFER_ACKNOWLEDGED announces none (it follows SUCCESS).
 */
export const WEBHOOK_EVENT_STATUS: Readonly<Record<string, PayoutStatus | null>> = {
  TRANSFER_SUCCESS: 'SUCCESS',
  TRANSFER_FAILED: 'FAILED',
  TRANSFER_REVERSED: 'REVERSED',
  TRANSFER_REJECTED: 'REJECTED',
  TRANSFER_ACKNOWLEDGED: null,
};

/**
 * Webhook events that announce no state change, only where the transfer waits at the provider
 * (issue 29). TRANSFER_APPROVED (approved in the provider's dashboard) is in the provider's
 * agent-skills payouts template, not in its OAS. The webhook readers translate these, so the
 * pipeline never sees the provider's event name.
 */
export const WEBHOOK_EVENT_SUB_STATE: Readonly<Record<string, ProviderSubState>> = {
  TRANSFER_APPROVED: 'approved',
};

/**
 * The event of a hint that carries only a sub-state (`WebhookHint.subState`), in the service's
 * words: no status, never applied as a state, kept and matched to its payout like any hint.
 */
export const SUB_STATE_HINT_EVENT = 'PROVIDER_SUB_STATE';
