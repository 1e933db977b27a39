import { type PayoutStatus, type ProviderApi } from '#contracts';
import {
  canMove,
  contradictionOf,
  type PayoutKind,
  type PayoutRow,
  toPaise,
  type WebhookApiVersion,
  type WebhookFields,
} from '#ledger';
import { apiOf, hasStatusCheck } from '../shared/payout-kinds.js';
import { type WebhookMeaning } from '#provider-client';

/** Why a webhook was not applied directly but the payout is checked now instead. */
export type RecheckReason =
  | 'status_mismatch'
  | 'amount_mismatch'
  /** The provider's id for the payout (v1 referenceId, v2 cf_transfer_id) is not the row's. */
  | 'reference_mismatch'
  | 'unclear_row'
  | 'odd_order'
  /** A v1 webhook: its signature does not bind the values to their names (ADR 0013). */
  | 'v1_unbound'
  /**
   * A webhook of the other API generation than the row was sent on, without the provider's id
   * to bind it to the row: it may be about another transfer with the same id (issue 29).
   */
  | 'other_generation';

/** What the decision needs besides the row and the webhook; the worker looks these up. */
export interface HintContext {
  readonly apiVersion: WebhookApiVersion;
  /** Whether the provider can be asked about this payout's kind (hasStatusCheck). */
  readonly checkable: boolean;
  /** Whether webhooks may still reopen this payout in the current period (WEBHOOKS_REOPEN_LIMIT). */
  readonly reopenAllowed: boolean;
}

/** Why a webhook leaves its payout as it is. */
export type NothingReason =
  | 'same_state'
  | 'backwards'
  | 'no_state'
  /** Its kind has no status endpoint: nothing can be asked, and a webhook alone settles nothing. */
  | 'no_status_endpoint'
  /** Webhooks have reopened this payout WEBHOOKS_REOPEN_LIMIT times in the period already. */
  | 'reopen_limited'
  /** Not bound to a person's payout (other generation, no provider id): the person's checks decide. */
  | 'other_generation';

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
  /** Nothing to do: the row is there already, or past it (never moved backwards), or cannot be asked. */
  | { readonly do: 'nothing'; readonly why: NothingReason };

/**
 * Decides what a verified transfer webhook does to its payout. It is applied directly only where
 * it can be checked against the row and agrees: a v2 webhook (signed over its whole body and
 * delivery time), the row PENDING (or SUCCESS, for a reversal), the announced state a legal
 * forward move, and the provider's ids (v1 referenceId, v2 cf_transfer_id) and the amount, where
 * both sides have them, matching. A v1
 * webhook is never applied: its signature binds no value to its name, so a captured one can be
 * re-aimed at another payout; it only asks the provider now. Anything odd is a reason to ask the
 * provider, never to guess; where the provider cannot be asked (no status endpoint for the
 * kind), a webhook changes nothing.
 */
export function decideHint(row: PayoutRow, m: WebhookMeaning, f: WebhookFields, ctx: HintContext): HintStep {
  if (m.about !== 'transfer') return { do: 'nothing', why: 'no_state' };
  const to = m.announces;
  if (row.status === 'RECEIVED' || row.status === 'SUBMITTING') return { do: 'wait' };
  const ask = (why: RecheckReason): HintStep =>
    ctx.checkable ? { do: 'recheck', why } : { do: 'nothing', why: 'no_status_endpoint' };
  if (to === null) {
    // ACKNOWLEDGED follows SUCCESS: one for a row not yet SUCCESS means its SUCCESS is late or lost.
    return row.status === 'PENDING' || row.status === 'UNKNOWN'
      ? ask('odd_order')
      : { do: 'nothing', why: 'no_state' };
  }
  // The webhook's own status word says another state than its event (the connector compares).
  if (!m.statusAgrees) return settledOr(row, ask('status_mismatch'));
  const binding = bindingOf(row, f, ctx.apiVersion);
  if (binding !== 'bound') return unbound(row, to, ctx, binding);
  if (row.status === to) return { do: 'nothing', why: 'same_state' };
  if (contradictionOf(row.status, to)) return { do: 'contradicted', observed: to };
  if (!canMove(row.status, to)) return { do: 'nothing', why: 'backwards' };
  // A person's payout: reopened (the operations API's recheck rule: only where the provider can
  // be asked), a bounded number of times, whatever else the webhook says; the check decides.
  if (row.status === 'REQUIRES_ATTENTION') {
    if (!ctx.checkable) return { do: 'nothing', why: 'no_status_endpoint' };
    return ctx.reopenAllowed ? { do: 'reopen' } : { do: 'nothing', why: 'reopen_limited' };
  }
  if (f.amount !== undefined && !sameAmount(f.amount, row.amount)) return ask('amount_mismatch');
  if (f.referenceId !== undefined && row.referenceId !== null && f.referenceId !== row.referenceId) {
    return ask('reference_mismatch');
  }
  // v2's cf_transfer_id is the provider's own id for the payout, kept as its svcTransferId.
  if (f.svcTransferId !== undefined && row.svcTransferId !== null && f.svcTransferId !== row.svcTransferId) {
    return ask('reference_mismatch');
  }
  // UNKNOWN: our own call's outcome is unknown, so there is no referenceId to hold the hint
  // against; one status call settles it.
  if (row.status === 'UNKNOWN') return ask('unclear_row');
  // A reversal of a payout we never saw succeed: its SUCCESS is late or lost.
  if (to === 'REVERSED' && row.status !== 'SUCCESS') return ask('odd_order');
  if (ctx.apiVersion === 'v1') return ask('v1_unbound');
  return { do: 'apply', to };
}

/**
 * Whether a webhook is about this row (issue 29). The provider has one namespace of transfer ids
 * per account: a webhook naming X may be about another transfer X (a batch entry of a v2 batch,
 * against a single payout X sent on v1, admitted before the namespace was one). On the row's own
 * generation, the id and the checks below bind it. On the other one, only the provider's own id
 * (v1 referenceId, v2 cf_transfer_id, whichever the row holds) does: `mismatch` when both have one
 * and they differ, `unbound` when either has none.
 */
function bindingOf(
  row: PayoutRow,
  f: WebhookFields,
  api: WebhookApiVersion,
): 'bound' | 'unbound' | 'reference_mismatch' {
  if (api === apiOf(row)) return 'bound';
  const hookId = f.svcTransferId ?? f.referenceId;
  const rowIds = [row.svcTransferId, row.referenceId].filter((x): x is string => x !== null);
  if (hookId === undefined || rowIds.length === 0) return 'unbound';
  return rowIds.includes(hookId) ? 'bound' : 'reference_mismatch';
}

/**
 * A webhook not bound to its row: never applied, never raised as a contradiction by itself, never
 * reopening a person's payout. The provider is asked about the row instead (a contradiction: the
 * watch check), where it can be.
 */
function unbound(
  row: PayoutRow,
  to: PayoutStatus,
  ctx: HintContext,
  binding: 'unbound' | 'reference_mismatch',
): HintStep {
  if (row.status === to) return { do: 'nothing', why: 'same_state' };
  if (!ctx.checkable) return { do: 'nothing', why: 'no_status_endpoint' };
  if (contradictionOf(row.status, to)) return { do: 'contradicted', observed: to };
  if (row.status === 'REQUIRES_ATTENTION') return { do: 'nothing', why: 'other_generation' };
  if (!canMove(row.status, to)) return { do: 'nothing', why: 'backwards' };
  return { do: 'recheck', why: binding === 'unbound' ? 'other_generation' : 'reference_mismatch' };
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
export function onContradiction(
  row: { readonly kind: PayoutKind; readonly providerApi?: ProviderApi | undefined },
  api: WebhookApiVersion,
): 'check' | 'raise' | 'ignore' {
  if (hasStatusCheck(row.kind, apiOf(row))) return 'check';
  return api === 'v2' ? 'raise' : 'ignore';
}
