/**
 * The provider's real lifecycle in the chaos mix (issue 29), behind `--lifecycle=<list>|all` and
 * `--in-doubt-apply=<0..1>`, both off by default. Every call to the sandbox's control API for
 * them is in this file, so it can follow the sandbox as merged: the routes, flags and test
 * account outcomes named here are the ones the issue-29 sandbox adds (docs/SANDBOX.md, "Long
 * waits"); where one is missing the run stops at start with a message naming it.
 *
 * - `error-then-paid`: direct transfers to the `errorThenSuccess` account (v1 status ERROR,
 *   "Transfer triggered; no response from bank", then SUCCESS).
 * - `queued-until-funded`: each merchant queues on low balance (flag `queueOnLowBalance`), starts
 *   with LOW_BALANCE and is funded (`POST /__sandbox/fund`) every FUND_EVERY_MS during the run,
 *   and with everything it needs at the end.
 * - `approval`: direct transfers to the `approvalPending`, `velocityCheck`, `limitBreach` and
 *   `anomaly` accounts (APPROVAL_PENDING); during the run a person in the dashboard approves
 *   (APPROVE_SHARE) or rejects each (`POST /__sandbox/transfers/approve|reject`); the rest at the end.
 * - `next-working-day`: direct transfers to the `nextWorkingDay` account; at the end the sandbox
 *   clock is advanced NEXT_WORKING_DAY_ADVANCE_MS (past a weekend and a holiday).
 * - `late-reversal`: direct transfers to the `lateReversal` account, reversed LATE_REVERSAL_MS
 *   after SUCCESS (`POST /__sandbox/timing {lateReversalMs}`).
 * - `entry-id-reused`: a share (ENTRY_REUSE_RATE) of batches get a single direct transfer on the
 *   same account with the transfer id of one of their entries, sent shortly after the batch (the
 *   provider has one namespace of transfer ids per merchant).
 * - `--in-doubt-apply`: the share of in-doubt faults (5xx, 520, hang, reset before applying) the
 *   sandbox applies anyway (fault mode `applyRate`; it reports `appliedInDoubt`).
 */
import { TEST_ACCOUNTS } from '#sandbox';
import { keyOf, type ChaosAccount, type PlannedCommand, type Random } from './generate.js';

export const LIFECYCLE_FAULTS = [
  'error-then-paid',
  'queued-until-funded',
  'approval',
  'next-working-day',
  'late-reversal',
  'entry-id-reused',
] as const;
export type LifecycleFault = (typeof LIFECYCLE_FAULTS)[number];

/** The sandbox test account outcomes (bank accounts) each lifecycle fault sends direct transfers to. */
const OUTCOMES: Partial<Record<LifecycleFault, readonly string[]>> = {
  'error-then-paid': ['errorThenSuccess'],
  approval: ['approvalPending', 'velocityCheck', 'limitBreach', 'anomaly'],
  'next-working-day': ['nextWorkingDay'],
  'late-reversal': ['lateReversal'],
};

export const LOW_BALANCE = '20000.00';
export const FUND_STEP = '50000.00';
export const FUND_EVERY_MS = 5_000;
/** At the end: enough for everything still queued. */
export const FUND_ALL = '9999999999.00';
export const APPROVE_SHARE = 0.7;
export const NEXT_WORKING_DAY_ADVANCE_MS = 4 * 24 * 60 * 60_000;
/** Inside the run's reversal watch (REVERSAL_WATCH_SCHEDULE in run.ts), so a miss is a defect. */
export const LATE_REVERSAL_MS = 5_000;
export const ENTRY_REUSE_RATE = 0.1;

/** `--lifecycle=a,b` or `all`; '' for none. Unknown names are refused. */
export function lifecycleOf(option: string): ReadonlySet<LifecycleFault> {
  const names = option === 'all' ? [...LIFECYCLE_FAULTS] : option.split(',').filter(Boolean);
  for (const n of names) {
    if (!(LIFECYCLE_FAULTS as readonly string[]).includes(n))
      throw new Error(`unknown lifecycle fault ${n}; known: ${LIFECYCLE_FAULTS.join(', ')}, all`);
  }
  return new Set(names as LifecycleFault[]);
}

/** Bank outcomes direct transfers are also sent towards (each as likely as one of today's). */
export function lifecycleOutcomes(on: ReadonlySet<LifecycleFault>): string[] {
  const out = [...on].flatMap((f) => OUTCOMES[f] ?? []);
  const missing = out.filter((o) => !TEST_ACCOUNTS.some((a) => (a.outcome as string) === o));
  if (missing.length > 0) {
    throw new Error(
      `chaos --lifecycle: the sandbox has no test account for ${missing.join(', ')} (the issue-29 sandbox adds them)`,
    );
  }
  return out;
}

/**
 * `entry-id-reused`: a single direct transfer on the batch's account with the id of one of its
 * entries, placed right after its batch (so sent shortly after it). `single(account, id)` plans
 * the direct transfer. Returns the commands in their new order and the reused (account, id) keys.
 */
export async function withEntryIdReuse(
  commands: readonly PlannedCommand[],
  r: Random,
  single: (account: string, id: string) => Promise<PlannedCommand>,
  rate = ENTRY_REUSE_RATE,
): Promise<{ commands: PlannedCommand[]; reused: Set<string> }> {
  const out: PlannedCommand[] = [];
  const reused = new Set<string>();
  for (const c of commands) {
    out.push(c);
    if (c.kind !== 'batch_transfer' || c.entries.length === 0 || !r.chance(rate)) continue;
    const entry = r.pick(c.entries);
    const s = await single(c.account, entry);
    out.push({ ...s, label: `${s.label}/reuses-entry-of-${c.identity}` });
    reused.add(keyOf(c.account, entry));
  }
  return { commands: out, reused };
}

type Url = (path: string, a: ChaosAccount) => string;

async function post(url: string, body: unknown): Promise<Response> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url.replace(/\?.*$/, '')}: ${res.status} ${await res.text()}`);
  return res;
}

/** What the driver did, for the report and the accounting of what happened. */
export interface LifecycleCounts {
  funded: number;
  released: number;
  approved: number;
  rejected: number;
  clockAdvancedMs: number;
}

/** The control calls of the lifecycle faults during a run (a person at the provider's dashboard). */
export class LifecycleDriver {
  readonly counts: LifecycleCounts = { funded: 0, released: 0, approved: 0, rejected: 0, clockAdvancedMs: 0 };
  private readonly decided = new Set<string>();

  constructor(
    readonly on: ReadonlySet<LifecycleFault>,
    private readonly sandboxUrl: string,
    private readonly accounts: readonly ChaosAccount[],
    private readonly forMerchant: Url,
    private readonly r: Random,
    /** Accounts left out of `queued-until-funded` (a run's held-for-funds account: its balance is the harness's). */
    private readonly notQueued: ReadonlySet<string> = new Set(),
  ) {}

  get active(): boolean {
    return this.on.size > 0;
  }

  /** Before the first command. */
  async setUp(): Promise<void> {
    for (const a of this.accounts) {
      if (this.on.has('queued-until-funded') && !this.notQueued.has(a.accountId)) {
        await post(this.forMerchant('/__sandbox/flags', a), { queueOnLowBalance: true });
        await post(this.forMerchant('/__sandbox/balance', a), { balance: LOW_BALANCE });
      }
      if (this.on.has('late-reversal')) {
        await post(this.forMerchant('/__sandbox/timing', a), { lateReversalMs: LATE_REVERSAL_MS });
      }
    }
  }

  /** Every FUND_EVERY_MS while commands arrive. */
  async tick(): Promise<void> {
    if (this.on.has('queued-until-funded')) await this.fund(FUND_STEP);
    if (this.on.has('approval')) await this.decide(false);
  }

  /** After the last command, before settling: fund all, decide all, then the next working day. */
  async finish(): Promise<void> {
    if (this.on.has('queued-until-funded')) await this.fund(FUND_ALL);
    if (this.on.has('approval')) await this.decide(true);
    if (this.on.has('next-working-day')) {
      await post(`${this.sandboxUrl}/__sandbox/clock/advance`, { ms: NEXT_WORKING_DAY_ADVANCE_MS });
      this.counts.clockAdvancedMs += NEXT_WORKING_DAY_ADVANCE_MS;
    }
  }

  private async fund(amount: string): Promise<void> {
    for (const a of this.accounts) {
      if (this.notQueued.has(a.accountId)) continue;
      const res = await post(this.forMerchant('/__sandbox/fund', a), { amount });
      const body = (await res.json()) as { released?: unknown };
      this.counts.funded += 1;
      this.counts.released += Array.isArray(body.released)
        ? body.released.length
        : Number(body.released ?? 0);
    }
  }

  /** Approves or rejects the transfers waiting for approval (at the end: all of them). */
  private async decide(all: boolean): Promise<void> {
    for (const a of this.accounts) {
      const res = await fetch(this.forMerchant('/__sandbox/transfers', a));
      const { transfers } = (await res.json()) as { transfers: { transferId: string; status: string }[] };
      for (const t of transfers) {
        if (t.status !== 'APPROVAL_PENDING' || this.decided.has(keyOf(a.clientId, t.transferId))) continue;
        if (!all && !this.r.chance(0.5)) continue; // a person gets to some of them each round
        this.decided.add(keyOf(a.clientId, t.transferId));
        const approve = this.r.chance(APPROVE_SHARE);
        await post(this.forMerchant(`/__sandbox/transfers/${approve ? 'approve' : 'reject'}`, a), {
          transferId: t.transferId,
        });
        if (approve) this.counts.approved += 1;
        else this.counts.rejected += 1;
      }
    }
  }
}

const BATCH_ENDPOINTS = new Set(['requestBatchTransfer', 'batchTransferV2']);

interface LastEvents {
  readonly last: ReadonlyMap<string, { data: { status: string } }>;
  readonly lastItem: ReadonlyMap<string, { data: { status: string } }>;
}

/**
 * `entry-id-reused`: the provider holds one transfer per (merchant, id), owned by whichever of the
 * batch entry and the single payout it took first. The other must never end SUCCESS (the provider
 * refused it as a repeat id: it moved no money of its own), and the owner's final state must agree
 * with the provider's record. `outcomes` and the keys are `keyOf(account, id)`.
 */
export function entryReuseViolations(
  reused: ReadonlySet<string>,
  ev: LastEvents,
  outcomes: ReadonlyMap<string, { endpoint: string; status: string }>,
): string[] {
  const out: string[] = [];
  for (const key of reused) {
    const o = outcomes.get(key);
    const single = ev.last.get(key)?.data.status ?? 'none';
    const entry = ev.lastItem.get(key)?.data.status ?? 'none';
    const shown = `${key.replace('|', '/')} (entry ${entry}, single payout ${single}, provider ${o ? `${o.status} via ${o.endpoint}` : 'none'})`;
    if (!o || o.status === 'NOT_APPLIED') {
      if (single === 'SUCCESS' || entry === 'SUCCESS')
        out.push(`${shown}: SUCCESS for an id the provider never applied`);
      continue;
    }
    const ownerIsEntry = BATCH_ENDPOINTS.has(o.endpoint);
    const [owner, other] = ownerIsEntry ? [entry, single] : [single, entry];
    if (other === 'SUCCESS')
      out.push(
        `${shown}: the ${ownerIsEntry ? 'single payout' : 'entry'} the provider refused as a repeat id ended SUCCESS`,
      );
    const disagrees =
      owner === 'SUCCESS'
        ? o.status !== 'SUCCESS'
        : owner === 'FAILED' || owner === 'REJECTED'
          ? !['FAILED', 'REJECTED', 'REVERSED'].includes(o.status)
          : owner === 'REVERSED'
            ? o.status !== 'REVERSED'
            : false;
    if (disagrees)
      out.push(`${shown}: the ${ownerIsEntry ? 'entry' : 'single payout'} disagrees with the provider`);
  }
  return out;
}

/** What the lifecycle asked for that did not happen (added to the chaos accounting). */
export function lifecycleNotHappened(driver: LifecycleDriver, commands: readonly PlannedCommand[]): string[] {
  const out: string[] = [];
  const planned = (o: string) => commands.filter((c) => c.label.endsWith(`/${o}`)).length;
  if (driver.on.has('queued-until-funded') && driver.counts.funded === 0) out.push('lifecycle: never funded');
  const approvals = (OUTCOMES.approval ?? []).reduce((n, o) => n + planned(o), 0);
  if (driver.on.has('approval') && approvals > 0 && driver.counts.approved + driver.counts.rejected === 0)
    out.push(`lifecycle: ${approvals} transfers sent for approval, none approved or rejected`);
  for (const f of driver.on) {
    const outcomes = OUTCOMES[f] ?? [];
    if (outcomes.length > 0 && outcomes.reduce((n, o) => n + planned(o), 0) === 0)
      out.push(`lifecycle ${f}: no command planned towards ${outcomes.join(', ')}`);
  }
  return out;
}
