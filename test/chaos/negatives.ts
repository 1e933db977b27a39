/**
 * Invariants of issue 29, judged against the provider's own record after the run
 * (`GET /__sandbox/outcomes`, keyed by `keyOf(account, id)` in the service's account terms):
 *
 * (a) every FAILED, REJECTED or REVERSED published (payouts and batch entries, any version) that
 *     the provider's final record contradicts was raised as `payouts.payout.contradicted` within
 *     its watch;
 * (b) no payout or batch entry of a kind with a status endpoint, and no batch, is left in
 *     REQUIRES_ATTENTION when the provider has a terminal answer for it (paid, or certainly not
 *     paid; a batch: for every entry);
 * (c) escalations (REQUIRES_ATTENTION) per 10,000 payouts, batch entries and batches, by reason
 *     (a batch's prefixed `batch `), within a budget.
 */
import { type PayoutEvent } from '#contracts';
import { keyOf, type PlannedCommand } from './generate.js';
import { type EventAnalysis, type NegativePublished, type ProviderOutcome } from './observe.js';

/** The provider statuses that are a terminal answer on its status endpoint. */
export const PROVIDER_TERMINAL = new Set(['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED']);
/** The provider record says the money did not move (or came back) for good. */
const PROVIDER_NOT_PAID = new Set(['NOT_APPLIED', 'FAILED', 'REJECTED', 'REVERSED']);

/**
 * Whether the provider's final record contradicts a negative state: the transfer exists, was not
 * returned, and is not failed (SUCCESS, or still on its way: PENDING and the provider's long waits,
 * which can still pay).
 */
export function providerContradicts(o: ProviderOutcome | undefined): boolean {
  if (!o) return false;
  return !o.returned && !PROVIDER_NOT_PAID.has(o.status);
}

/**
 * (a): each negative state the provider's record contradicts must have a
 * `payouts.payout.contradicted` event for the same (account, id), raised at most `watchMs` after
 * the last negative state published for it. Violations name the published states, the
 * provider's record and how late (or absent) the contradiction was.
 */
export function unraisedContradictions(
  negatives: ReadonlyMap<string, readonly NegativePublished[]>,
  contradicted: readonly PayoutEvent[],
  outcomes: ReadonlyMap<string, ProviderOutcome>,
  watchMs: number,
  label: (key: string) => string,
): { contradictedByProvider: number; raised: number; violations: string[] } {
  const raisedAt = new Map<string, number[]>();
  for (const e of contradicted) {
    const k = keyOf(e.data.accountId, e.subject);
    const list = raisedAt.get(k) ?? [];
    list.push(Date.parse(e.time));
    raisedAt.set(k, list);
  }
  const violations: string[] = [];
  let contradictedByProvider = 0;
  let raised = 0;
  for (const [key, published] of negatives) {
    const o = outcomes.get(key);
    if (!providerContradicts(o)) continue;
    contradictedByProvider += 1;
    const what = published
      .map((n) => `${n.status} v${n.version}${n.reason ? ` (${n.reason})` : ''}`)
      .join(', ');
    const last = Math.max(...published.map((n) => n.at ?? Number.NaN).filter((t) => Number.isFinite(t)));
    const times = raisedAt.get(key) ?? [];
    const shown = `${key.replace('|', '/')} (${label(key)}): published ${what}; the provider's record is ${o?.status ?? '?'} (reached ${o?.reached.join('>') || '-'})`;
    if (times.length === 0) {
      violations.push(`${shown}; no payouts.payout.contradicted`);
      continue;
    }
    const after = Number.isFinite(last) ? times.filter((t) => t >= last) : times;
    if (after.length === 0) {
      violations.push(`${shown}; contradicted only before its last negative state`);
      continue;
    }
    const delay = Number.isFinite(last) ? Math.min(...after) - last : 0;
    if (delay > watchMs) {
      violations.push(
        `${shown}; contradicted ${(delay / 1000).toFixed(1)} s after, past its watch (${(watchMs / 1000).toFixed(0)} s)`,
      );
      continue;
    }
    raised += 1;
  }
  return { contradictedByProvider, raised, violations };
}

/** Kinds the provider can be asked about (self withdrawals have no status endpoint). */
export function hasStatusEndpoint(kind: string): boolean {
  return kind !== 'self_withdrawal' && kind !== 'batch_transfer';
}

export interface AttentionLeft {
  /** Payouts, batch entries and batches judged (the denominator of the rate). */
  readonly payouts: number;
  /** Payouts, batch entries and batches whose last state is REQUIRES_ATTENTION, by reason. */
  readonly byReason: Map<string, number>;
  readonly total: number;
  /** Of those, batches: judged, and left to a person. */
  readonly batches: number;
  readonly batchesLeft: number;
  /** (b): by reason and the provider's terminal answer, and a few of them. */
  readonly settledByProvider: Map<string, number>;
  /** (b): each of them, named. */
  readonly settled: string[];
  /** Left to a person while the provider never received it ('not found' settles nothing). */
  readonly neverReceived: number;
}

/**
 * Payouts, batch entries and batches left in REQUIRES_ATTENTION, and which of them the provider
 * had a terminal answer for by the end (b), by reason. A batch counts as one escalation besides
 * its entries (a person is asked about the batch); the provider settled it when every entry has a
 * terminal answer there (the batch's attention watch then completes it).
 */
export function attentionLeft(
  commands: readonly PlannedCommand[],
  ev: Pick<EventAnalysis, 'last' | 'lastItem'>,
  outcomes: ReadonlyMap<string, ProviderOutcome>,
  /** Keys judged elsewhere (a batch entry id reused by a single payout): counted, never compared. */
  skip: ReadonlySet<string> = new Set(),
): AttentionLeft {
  const byReason = new Map<string, number>();
  const settledByProvider = new Map<string, number>();
  const settled: string[] = [];
  let payouts = 0;
  let total = 0;
  let batches = 0;
  let batchesLeft = 0;
  let neverReceived = 0;
  const judge = (account: string, id: string, kind: string, label: string, e: PayoutEvent | undefined) => {
    payouts += 1;
    if (e?.data.status !== 'REQUIRES_ATTENTION') return;
    total += 1;
    const reason = e.data.reason ?? '(no reason)';
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    if (!hasStatusEndpoint(kind) || skip.has(keyOf(account, id))) return;
    const o = outcomes.get(keyOf(account, id));
    if (!o || o.status === 'NOT_APPLIED') {
      neverReceived += 1;
      return;
    }
    if (!PROVIDER_TERMINAL.has(o.status)) return;
    const k = `${reason} (provider: ${o.status})`;
    settledByProvider.set(k, (settledByProvider.get(k) ?? 0) + 1);
    settled.push(`${account}/${id} (${label}): REQUIRES_ATTENTION ${reason}; the provider says ${o.status}`);
  };
  const judgeBatch = (c: PlannedCommand, e: PayoutEvent | undefined) => {
    payouts += 1;
    batches += 1;
    if (e?.data.status !== 'REQUIRES_ATTENTION') return;
    total += 1;
    batchesLeft += 1;
    const reason = `batch ${e.data.reason ?? '(no reason)'}`;
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    const keys = c.entries.map((entry) => keyOf(c.account, entry));
    if (keys.length === 0 || keys.some((k) => skip.has(k))) return;
    const found = keys.map((k) => outcomes.get(k)).filter((o) => o && o.status !== 'NOT_APPLIED');
    if (found.length === 0) {
      neverReceived += 1;
      return;
    }
    if (found.length < keys.length || !found.every((o) => o && PROVIDER_TERMINAL.has(o.status))) return;
    const k = `${reason} (provider: every entry final)`;
    settledByProvider.set(k, (settledByProvider.get(k) ?? 0) + 1);
    settled.push(
      `${c.account}/${c.identity} (${c.label}): batch REQUIRES_ATTENTION ${e.data.reason ?? ''}; the provider has every entry final (${found.map((o) => o?.status).join(', ')})`,
    );
  };
  for (const c of commands) {
    if (c.kind === 'batch_transfer') {
      judgeBatch(c, ev.last.get(keyOf(c.account, c.identity)));
      for (const entry of c.entries)
        judge(c.account, entry, 'batch_entry', `${c.label} entry`, ev.lastItem.get(keyOf(c.account, entry)));
    } else {
      judge(c.account, c.identity, c.kind, c.label, ev.last.get(keyOf(c.account, c.identity)));
    }
  }
  return { payouts, byReason, total, batches, batchesLeft, settledByProvider, settled, neverReceived };
}

/** Escalations per 10,000 payouts, batch entries and batches. */
export function per10k(n: number, of: number): number {
  return of === 0 ? 0 : (n * 10_000) / of;
}

/** (c): over budget is a violation naming the rate and the reasons. */
export function attentionOverBudget(a: AttentionLeft, budgetPer10k: number): string[] {
  const rate = per10k(a.total, a.payouts);
  if (rate <= budgetPer10k) return [];
  const reasons = [...a.byReason]
    .sort((x, y) => y[1] - x[1])
    .map(([r, n]) => `${r} ${per10k(n, a.payouts).toFixed(0)}`)
    .join(', ');
  return [
    `${rate.toFixed(0)} escalations per 10,000 payouts, batch entries and batches (${a.total} of ${a.payouts}; ${a.batchesLeft} of ${a.batches} batches), budget ${budgetPer10k}: ${reasons}`,
  ];
}
