import { type PayoutStatus } from '#contracts';
import {
  canMove,
  contradictionOf,
  type PayoutKind,
  type PayoutRow,
  toPaise,
  type WebhookApiVersion,
  type WebhookFields,
} from '#ledger';
import { hasStatusCheck } from '../shared/payout-kinds.js';
import { mapProviderStatus } from '../shared/status-mapping.js';

/** The state a transfer webhook announces; ACKNOWLEDGED announces none (it follows SUCCESS). */
export const WEBHOOK_STATUS: Readonly<Record<string, PayoutStatus | null>> = {
  TRANSFER_SUCCESS: 'SUCCESS',
  TRANSFER_FAILED: 'FAILED',
  TRANSFER_REVERSED: 'REVERSED',
  TRANSFER_REJECTED: 'REJECTED',
  TRANSFER_ACKNOWLEDGED: null,
};

/** Why a webhook was not applied directly but the payout is checked now instead. */
export type RecheckReason =
  'status_mismatch' | 'amount_mismatch' | 'reference_mismatch' | 'unclear_row' | 'odd_order';

/** What a transfer webhook does to its payout (ADR 0013). */
export type HintStep =
  /** Consistent with the row: the terminal state, through the ledger, now. */
  | { readonly do: 'apply'; readonly to: PayoutStatus }
  /** A hint only: the reconciler asks the provider about this payout now. */
  | { readonly do: 'recheck'; readonly why: RecheckReason }
  /** A person's payout: reopened (UNKNOWN, due now), and the status check settles it. */
  | { readonly do: 'reopen' }
  /** The row cannot take it yet (the executor has not recorded the submit answer): later. */
  | { readonly do: 'wait' }
  /**
   * The webhook says otherwise than the published terminal state (ADR 0018): never applied,
   * never dropped; what follows is `onContradiction`'s.
   */
  | { readonly do: 'contradicted'; readonly observed: PayoutStatus }
  /** Nothing to do: the row is there already, or past it (never moved backwards). */
  | { readonly do: 'nothing'; readonly why: 'same_state' | 'backwards' | 'no_state' };

/**
 * Decides what a verified transfer webhook does to its payout. It is applied directly only where
 * it can be checked against the row and agrees: the row is PENDING (or SUCCESS, for a reversal),
 * the announced state is a legal forward move, and the referenceId and amount, where both sides
 * have them, match. Anything odd is a reason to ask the provider, never to guess.
 */
export function decideHint(row: PayoutRow, event: string, f: WebhookFields): HintStep {
  if (!Object.hasOwn(WEBHOOK_STATUS, event)) return { do: 'nothing', why: 'no_state' };
  const to = WEBHOOK_STATUS[event] ?? null;
  if (row.status === 'RECEIVED' || row.status === 'SUBMITTING') return { do: 'wait' };
  if (to === null) {
    // ACKNOWLEDGED follows SUCCESS: one for a row not yet SUCCESS means its SUCCESS is late or lost.
    return row.status === 'PENDING' || row.status === 'UNKNOWN'
      ? { do: 'recheck', why: 'odd_order' }
      : { do: 'nothing', why: 'no_state' };
  }
  if (f.status !== undefined && mapProviderStatus(f.status) !== to) {
    return settledOr(row, { do: 'recheck', why: 'status_mismatch' });
  }
  if (row.status === to) return { do: 'nothing', why: 'same_state' };
  if (contradictionOf(row.status, to)) return { do: 'contradicted', observed: to };
  if (!canMove(row.status, to)) return { do: 'nothing', why: 'backwards' };
  if (f.amount !== undefined && !sameAmount(f.amount, row.amount)) {
    return { do: 'recheck', why: 'amount_mismatch' };
  }
  if (f.referenceId !== undefined && row.referenceId !== null && f.referenceId !== row.referenceId) {
    return { do: 'recheck', why: 'reference_mismatch' };
  }
  if (row.status === 'REQUIRES_ATTENTION') return { do: 'reopen' };
  // UNKNOWN: our own call's outcome is unknown, so there is no referenceId to hold the hint
  // against; one status call settles it.
  if (row.status === 'UNKNOWN') return { do: 'recheck', why: 'unclear_row' };
  // A reversal of a payout we never saw succeed: its SUCCESS is late or lost.
  if (to === 'REVERSED' && row.status !== 'SUCCESS') return { do: 'recheck', why: 'odd_order' };
  return { do: 'apply', to };
}

/** A settled row is not asked about again for an inconsistent hint; an open one is. */
function settledOr(row: PayoutRow, step: HintStep): HintStep {
  return row.status === 'PENDING' || row.status === 'UNKNOWN' ? step : { do: 'nothing', why: 'no_state' };
}

function sameAmount(a: string, b: string): boolean {
  try {
    return toPaise(a) === toPaise(b);
  } catch {
    return false;
  }
}

/**
 * What a webhook contradicting a terminal state leads to (ADR 0018). Where the kind has a status
 * endpoint, the provider is asked now and the status check decides (the reconciler records the
 * contradiction if the provider confirms it): a v1 webhook can be re-aimed at another payout, so
 * it never raises one by itself. Where there is none, only a v2 webhook, whose signature covers
 * its whole body, is believed enough to raise it; a v1 one is logged and counted only.
 */
export function onContradiction(kind: PayoutKind, api: WebhookApiVersion): 'check' | 'raise' | 'ignore' {
  if (hasStatusCheck(kind)) return 'check';
  return api === 'v2' ? 'raise' : 'ignore';
}
