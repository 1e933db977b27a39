import { isTerminal, type PayoutRow } from '#ledger';
import { type CheckRules, type CheckStep, decideOnAnswer, type StatusCheck } from './decide-check.js';
import { attentionWatchDelay, SETTLED_WHILE_WAITING } from './long-waits.js';

/*
 * The attention watch (issue 29). A payout handed to a person is often one the provider settles
 * later on its own (a queue that waited for funds, an approval given late): in the chaos runs most
 * escalated payouts had been paid by the end. So a REQUIRES_ATTENTION payout whose kind has a status
 * endpoint is still asked, slowly (ATTENTION_WATCH_SCHEDULE, up to ATTENTION_WATCH_MAX). A terminal
 * answer that contradicts nothing settles it through the ledger, with a reason that says so: the
 * queue row closes by itself, an open proposal on it goes stale (its version moved), and the
 * history tells the person who had it open why. Anything else leaves it with the person:
 * not found (never an automatic FAILED: ADR 0016, 0018), unclear, still pending.
 */

export { SETTLED_WHILE_WAITING };

/** What the watch does with a REQUIRES_ATTENTION row's status answer. */
export function decideOnAttentionAnswer(
  row: PayoutRow,
  check: StatusCheck,
  rules: CheckRules,
  nowMs: number = Date.now(),
): CheckStep {
  const next = rules.waits ? attentionWatchDelay(row.stateChangedAt, rules.waits, nowMs) : undefined;
  const stay: CheckStep =
    next === undefined ? { do: 'end-watch' } : { do: 'reschedule', inMs: next, lastError: null };
  if (!check.found) return stay;
  const a = check.answer;
  if (!a.status) return { ...stay, note: 'unknown-status' };
  if (!isTerminal(a.status)) return stay;
  // The provider's reference for the payout is not the one on the row: evidence for the person,
  // not an answer about this payout.
  if (a.referenceId !== undefined && row.referenceId !== null && a.referenceId !== row.referenceId)
    return stay;
  // The ordinary rules of a terminal answer (the state machine; its watch, if any), then the reason.
  const step = decideOnAnswer(row, check, false, rules, nowMs);
  if (step.do !== 'move') return stay;
  const reason = a.reason ? `${SETTLED_WHILE_WAITING}: ${a.reason}` : SETTLED_WHILE_WAITING;
  return { ...step, answer: { ...a, reason } };
}

/** The attention watch's first check of a row entering REQUIRES_ATTENTION now; undefined: none. */
export function attentionWatchFirst(rules: CheckRules, nowMs: number = Date.now()): number | undefined {
  return rules.waits ? attentionWatchDelay(new Date(nowMs), rules.waits, nowMs) : undefined;
}
