/**
 * The run's side of hold for funds (test/chaos/funds.ts has the rules and the checks): the
 * services' settings, the funding and the looks at the readings while the run goes, and the
 * checks at the end from the ledger and the sandbox.
 */
import type pg from 'pg';
import { type ChaosAccount, type PlannedCommand } from './generate.js';
import { sleep } from './infra.js';
import { check, type Check } from './observe.js';
import {
  commandPaise,
  fifoViolations,
  FUNDS_ACCOUNT,
  FUNDS_ALL,
  FUNDS_EVERY_MS,
  FUNDS_MAX_HOLD,
  FUNDS_READ_INTERVAL_MS,
  FUNDS_SAMPLE_MS,
  FUNDS_START,
  FUNDS_CHARGE,
  FUNDS_FEE,
  FUNDS_THRESHOLD,
  fundingStep,
  heldOutcomeViolations,
  paiseOf,
  rupees,
  SandboxClockMap,
  unexcusedRefusals,
  type HeldRow,
  type Refusal,
} from './funds.js';

export { FUNDS_ACCOUNT, FUNDS_CHARGE, FUNDS_START };

/** The services' settings for the held account: holding on, readings every second. */
export function fundsServiceEnv(variant: keyof typeof FUNDS_MAX_HOLD): Record<string, string> {
  return {
    FUNDS_HOLD: JSON.stringify([
      {
        accountId: FUNDS_ACCOUNT.accountId,
        threshold: FUNDS_THRESHOLD,
        fee: FUNDS_FEE,
        maxHold: FUNDS_MAX_HOLD[variant],
      },
    ]),
    BALANCE_READ_INTERVAL_MS: String(FUNDS_READ_INTERVAL_MS),
  };
}

type Url = (path: string, a: ChaosAccount) => string;

/** Funds the held account while commands arrive and looks at its readings and the sandbox clock. */
export class FundsDriver {
  readonly counts = { funded: 0, fundedPaise: 0n };
  readonly readings = new Set<number>();
  readonly clock = new SandboxClockMap();
  private funding = false;
  private looking = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly sandboxUrl: string,
    private readonly forMerchant: Url,
    private readonly pool: () => pg.Pool | undefined,
    /** What one funding adds (paise). */
    readonly step: bigint,
  ) {}

  /** A driver for `commands`' share on the held account over `durationMs` of sending. */
  static of(
    commands: readonly PlannedCommand[],
    durationMs: number,
    sandboxUrl: string,
    forMerchant: Url,
    pool: () => pg.Pool | undefined,
  ): FundsDriver {
    const total = commands
      .filter((c) => c.account === FUNDS_ACCOUNT.accountId)
      .reduce((s, c) => s + commandPaise(c.value), 0n);
    return new FundsDriver(sandboxUrl, forMerchant, pool, fundingStep(total, durationMs));
  }

  start(): void {
    this.funding = true;
    this.looking = true;
    this.loops.push(
      (async () => {
        while (this.funding) {
          await sleep(FUNDS_EVERY_MS);
          if (this.funding) await this.fund(rupees(this.step), true).catch(() => undefined);
        }
      })(),
      (async () => {
        while (this.looking) {
          await this.look().catch(() => undefined);
          await sleep(FUNDS_SAMPLE_MS);
        }
      })(),
    );
  }

  /** The last command is sent: everything still held can be funded. */
  async finish(): Promise<void> {
    this.funding = false;
    await this.fund(FUNDS_ALL, false);
  }

  /** Before judging. */
  async stop(): Promise<void> {
    this.funding = false;
    this.looking = false;
    await Promise.all(this.loops);
  }

  /** The sandbox clock's offset now (after the run advances it, at once). */
  async look(): Promise<void> {
    const wall = Date.now();
    const c = (await (await fetch(`${this.sandboxUrl}/__sandbox/clock`)).json()) as { offsetMs: number };
    this.clock.add(wall, c.offsetMs);
    const pool = this.pool();
    if (!pool) return;
    const { rows } = await pool.query<{ t: number | null }>(
      `SELECT extract(epoch FROM read_at) * 1000 AS t FROM balance_reading WHERE account_id = $1`,
      [FUNDS_ACCOUNT.accountId],
    );
    const t = rows[0]?.t;
    if (t !== null && t !== undefined) this.readings.add(Number(t));
  }

  /** `step`: one of the run's fundings (counted); else the end's top-up. */
  private async fund(amount: string, step: boolean): Promise<void> {
    const res = await fetch(this.forMerchant('/__sandbox/fund', FUNDS_ACCOUNT), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount }),
    });
    if (!res.ok) throw new Error(`fund: ${res.status}`);
    if (!step) return;
    this.counts.funded += 1;
    this.counts.fundedPaise += this.step;
  }
}

interface Initiation {
  endpoint: string;
  transferId: string;
  accepted: boolean;
  at: number;
}

const BATCH_ENDPOINTS = new Set(['requestBatchTransfer', 'batchTransferV2']);

async function heldRows(pool: pg.Pool): Promise<HeldRow[]> {
  const ms = (c: string) => `(extract(epoch FROM ${c}) * 1000)::float8`;
  const rejected = (subject: string, table: string) =>
    `(SELECT h.reason || '|' || ${ms('h.at')}::text FROM state_history h
       WHERE h.subject = '${subject}' AND h.subject_id = ${table}.id AND h.to_status = 'REJECTED'
       ORDER BY h.id DESC LIMIT 1)`;
  const { rows } = await pool.query<{
    kind: 'payout' | 'batch';
    id: string;
    amount: string;
    entries: number;
    created_at: number;
    held_since: number | null;
    sent_at: number | null;
    status: string;
    rejected: string | null;
  }>(
    `SELECT 'payout' AS kind, transfer_id AS id, amount::text AS amount, 1 AS entries, ${ms('created_at')} AS created_at,
            ${ms('held_since')} AS held_since, ${ms('sent_at')} AS sent_at, status,
            ${rejected('payout', 'payout')} AS rejected
       FROM payout WHERE account_id = $1
     UNION ALL
     SELECT 'batch', batch_transfer_id, total_amount::text, entry_count, ${ms('created_at')},
            ${ms('held_since')}, ${ms('sent_at')}, status, ${rejected('batch', 'batch')}
       FROM batch WHERE account_id = $1`,
    [FUNDS_ACCOUNT.accountId],
  );
  return rows.map((x) => {
    const [reason, at] = x.rejected === null ? [null, null] : x.rejected.split('|');
    return {
      kind: x.kind,
      id: x.id,
      // What it takes from the balance, as the hold counts it: the amount and a fee per transfer.
      amount: paiseOf(x.amount) + paiseOf(FUNDS_FEE) * BigInt(x.entries),
      createdAt: Number(x.created_at),
      heldSince: x.held_since === null ? null : Number(x.held_since),
      sentAt: x.sent_at === null ? null : Number(x.sent_at),
      status: x.status,
      rejectedReason: reason || null,
      rejectedAt: at ? Number(at) : null,
    };
  });
}

/** The hold's checks and its line in the report, from the ledger and the sandbox at the end. */
export async function fundsChecks(
  pool: pg.Pool,
  sandboxUrl: string,
  commands: readonly PlannedCommand[],
  driver: FundsDriver,
  batchDelayMs: number,
  variant: keyof typeof FUNDS_MAX_HOLD,
): Promise<{ checks: Check[]; figure: string }> {
  const mine = commands.filter((c) => c.account === FUNDS_ACCOUNT.accountId);
  const batchOf = new Map<string, string>();
  for (const c of mine) for (const e of c.entries) batchOf.set(e, c.identity);
  const q = `clientId=${encodeURIComponent(FUNDS_ACCOUNT.clientId)}`;
  const received = (
    (await (await fetch(`${sandboxUrl}/__sandbox/received?${q}`)).json()) as { initiations: Initiation[] }
  ).initiations;
  const refusalsAt = (
    (await (await fetch(`${sandboxUrl}/__sandbox/balance/refusals?${q}`)).json()) as { refusals: Refusal[] }
  ).refusals;
  const rows = await heldRows(pool);

  const wall = (t: number) => driver.clock.toWall(t);
  const takenAt = new Map<string, number>();
  const initiations = new Map<string, number>();
  for (const i of received) {
    initiations.set(i.transferId, (initiations.get(i.transferId) ?? 0) + 1);
    if (!i.accepted) continue;
    const t = wall(i.at) + (BATCH_ENDPOINTS.has(i.endpoint) ? batchDelayMs : 0);
    if (t < (takenAt.get(i.transferId) ?? Infinity)) takenAt.set(i.transferId, t);
  }
  const sentAt = new Map<string, number>();
  for (const x of rows) if (x.sentAt !== null) sentAt.set(x.id, x.sentAt);
  const refusals = refusalsAt.map((r) => ({ ...r, at: wall(r.at) }));
  const edge = unexcusedRefusals(refusals, {
    sentAt,
    takenAt,
    readings: [...driver.readings].sort((a, b) => a - b),
    batchOf,
  });
  const held = rows.filter((x) => x.heldSince !== null);
  const entriesOf = new Map(mine.map((c) => [c.identity, c.entries]));
  const outcomes = heldOutcomeViolations(rows, (x) =>
    [x.id, ...(x.kind === 'batch' ? (entriesOf.get(x.id) ?? []) : [])].reduce(
      (n, id) => n + (initiations.get(id) ?? 0),
      0,
    ),
  );
  const released = held.filter((x) => x.sentAt !== null).length;
  const expired = held.filter((x) => x.rejectedReason === 'funds_hold_expired').length;
  const exercised: string[] = [];
  if (held.length === 0) exercised.push('nothing was held for funds: the hold was not exercised');
  else if (released === 0) exercised.push(`${held.length} held, none released after funding`);
  if (driver.counts.funded === 0) exercised.push('the held account was never funded during the run');
  const fifo = fifoViolations(rows);
  const count = (k: HeldRow['kind']) =>
    `${held.filter((x) => x.kind === k).length} of ${rows.filter((x) => x.kind === k).length} ${k === 'batch' ? 'batches' : 'payouts'}`;
  const figure =
    `account ${FUNDS_ACCOUNT.accountId} (threshold ${FUNDS_THRESHOLD}, fee ${FUNDS_FEE} for a charge of ${FUNDS_CHARGE} and its tax, maximum hold ${FUNDS_MAX_HOLD[variant]}, readings every ${FUNDS_READ_INTERVAL_MS} ms): ` +
    `held ${count('payout')} and ${count('batch')}; ${released} released after funding, ${expired} ended funds_hold_expired; ` +
    `funded ${driver.counts.funded} times with ${rupees(driver.step)} (${rupees(driver.counts.fundedPaise)} in all, from ${FUNDS_START}; then everything at the end); ` +
    `${refusals.length} refused by the provider for insufficient balance (${edge.excused} the documented edge: a call in the air at a reading${edge.why.length ? `, e.g. ${edge.why.slice(0, 3).join('; ')}` : ''}); ` +
    `${fifo.pairs} overtaking pairs judged for order; ${driver.readings.size} readings seen`;
  return {
    figure,
    checks: [
      check(
        'funds: the held account held payouts and released them after funding (the hold was exercised)',
        `${held.length} held, ${released} released, funded ${driver.counts.funded} times`,
        exercised,
      ),
      check(
        'funds: nothing of the held account refused by the provider for insufficient balance, but a call in the air at a reading',
        `${refusals.length} balance refusals at the provider, ${edge.excused} with a call in the air at a reading`,
        edge.violations,
      ),
      check(
        'funds: every HELD_FOR_FUNDS payout or batch sent after its hold, or REJECTED funds_hold_expired and never at the provider',
        `${held.length} held: ${released} sent, ${expired} expired`,
        outcomes,
      ),
      check(
        'funds: held ones released oldest first where they fit (a younger one overtakes only an older, larger one)',
        `${fifo.pairs} pairs where a younger one was sent while an older one stayed held`,
        fifo.violations,
      ),
    ],
  };
}
