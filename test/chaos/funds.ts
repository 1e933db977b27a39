/**
 * Hold for funds in the chaos mix (issue 32, ADR 0027), behind `--funds-hold=true` (on in the full
 * and the short run). One more service account, `funds` (API v1, v1 webhooks, its own sandbox
 * merchant), has holding on (`FUNDS_HOLD`) and a limited balance: it starts with FUNDS_START,
 * the harness funds it (`POST /__sandbox/fund`, a CREDIT_CONFIRMATION webhook) every
 * FUND_EVERY_MS while commands arrive with a share of what its commands ask for, and with
 * everything at the end. Its merchant charges a fee per transfer (FUNDS_CHARGE and its tax, taken
 * with the amount; the account's FUNDS_HOLD `fee` counts it) and refuses what does not fit (no
 * low-balance queuing), so every refusal for insufficient balance shows in
 * `GET /__sandbox/balance/refusals`.
 *
 * The checks (pure functions over what the run collected):
 * - `unexcusedRefusals`: nothing of the held account refused for insufficient balance, except the
 *   documented edge (ADR 0027, "the rule"): a call in the air at a reading, i.e. a payout sent
 *   (SUBMITTING, `sent_at`) at or before a reading's time that the provider took only after it
 *   (kills between the claim and the call, late applies, a batch's entries taken when it is
 *   processed), near the refused payout's sending.
 * - `heldOutcomeViolations`: every payout or batch that was HELD_FOR_FUNDS left it, either sent
 *   after its hold (sent_at after held_since) or REJECTED `funds_hold_expired` and never at the
 *   provider (no initiation of its id, or of a batch's entries); nothing else ends
 *   `funds_hold_expired`.
 * - `fifoViolations`: held ones are released oldest first where they fit: a younger one sent
 *   while an older one of the same kind stayed held is smaller than it (the older did not fit in
 *   the room the younger fitted in: decideFundsHold's skipping).
 */
import { type ChaosAccount } from './generate.js';

export const FUNDS_ACCOUNT: ChaosAccount = {
  accountId: 'funds',
  clientId: 'chaos_funds_client',
  clientSecret: 'chaos_funds_client_secret',
  api: 'v1',
  webhookVersion: 'v1',
};

/** The held account's balance at the start (rupees). */
export const FUNDS_START = '20000.00';
/** How often the harness funds it while commands arrive. */
export const FUNDS_EVERY_MS = 5_000;
/** The share of what its commands ask for (all amounts) funded over the sending window. */
export const FUNDS_SHARE = { num: 15n, den: 100n };
/** At the end: enough for everything still held. */
export const FUNDS_ALL = '9999999999.00';
/** FUNDS_HOLD's threshold for the account: kept back, the margin for a call in the air. */
export const FUNDS_THRESHOLD = '0';
/** The merchant's service charge per transfer (the sandbox adds 18 % tax on it). */
export const FUNDS_CHARGE = '5.00';
/** FUNDS_HOLD's fee for the account: the charge and its tax, what each transfer takes besides its amount. */
export const FUNDS_FEE = '5.90';
/** The account's maximum hold (FUNDS_HOLD maxHold): inside the run, so some holds expire. */
export const FUNDS_MAX_HOLD = { full: '60s', short: '20s' } as const;
/** BALANCE_READ_INTERVAL_MS in a run with holds: a held payout waits for a reading at most this. */
export const FUNDS_READ_INTERVAL_MS = 1_000;
/** How often the harness looks at the account's latest reading (to know the readings' times). */
export const FUNDS_SAMPLE_MS = 100;
/** A call in the air at a reading within this before the refused payout's sending excuses it. */
export const FUNDS_EDGE_WINDOW_MS = 3 * FUNDS_READ_INTERVAL_MS + 2_000;
/** How much later than a payout's sending a reading its claim saw may be (read committed: the claim's statement sees readings committed after its transaction began). */
export const FUNDS_READ_SKEW_MS = 1_000;
/** Two payouts created this close are not judged for order (intake of two instances commits in either order). */
export const FIFO_MARGIN_MS = 1_000;

/** A decimal rupee string ("123.45", "7") in paise; never through a float. */
export function paiseOf(decimal: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(decimal.trim());
  if (!m) throw new Error(`not a decimal amount: ${decimal}`);
  const v = BigInt(m[2] ?? '0') * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] === '-' ? -v : v;
}

export function rupees(paise: bigint): string {
  const neg = paise < 0n;
  const a = neg ? -paise : paise;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

/** What one command asks the provider to pay in all (a batch: its entries), in paise. */
export function commandPaise(value: Record<string, unknown>): bigint {
  const data = (value['data'] ?? {}) as Record<string, unknown>;
  if (Array.isArray(data['entries'])) {
    return (data['entries'] as { amount?: unknown }[]).reduce(
      (s, e) => s + (typeof e.amount === 'string' ? paiseOf(e.amount) : 0n),
      0n,
    );
  }
  return typeof data['amount'] === 'string' ? paiseOf(data['amount']) : 0n;
}

/** The step funded every FUNDS_EVERY_MS over `durationMs`, for commands asking `total` in all. */
export function fundingStep(total: bigint, durationMs: number): bigint {
  const ticks = BigInt(Math.max(1, Math.floor(durationMs / FUNDS_EVERY_MS)));
  return (total * FUNDS_SHARE.num) / FUNDS_SHARE.den / ticks;
}

/** A payout or batch of the held account as the ledger has it at the end (times in ms). */
export interface HeldRow {
  readonly kind: 'payout' | 'batch';
  readonly id: string;
  /** What it takes from the balance (paise): its amount (a batch: total) and FUNDS_FEE per transfer. */
  readonly amount: bigint;
  readonly createdAt: number;
  readonly heldSince: number | null;
  readonly sentAt: number | null;
  readonly status: string;
  /** The reason of its REJECTED move, if it has one. */
  readonly rejectedReason: string | null;
  /** When it left HELD_FOR_FUNDS without being sent (its REJECTED move), if it did. */
  readonly rejectedAt: number | null;
}

/** One refusal of the held merchant's balance check (`GET /__sandbox/balance/refusals`), at in wall ms. */
export interface Refusal {
  readonly transferId: string;
  readonly endpoint: string;
  readonly at: number;
  readonly debit: string;
  readonly available: string;
}

export interface EdgeFacts {
  /** The held account's payouts and batches with sent_at, by id (a batch by its batch id). */
  readonly sentAt: ReadonlyMap<string, number>;
  /** When the provider took each id's money (wall ms): its first accepted initiation (a batch: when processed). */
  readonly takenAt: ReadonlyMap<string, number>;
  /** Readings' times seen (read_at, wall ms). */
  readonly readings: readonly number[];
  /** Ids whose payout is a batch entry: their batch id (sent_at is the batch's). */
  readonly batchOf: ReadonlyMap<string, string>;
}

/**
 * The refusals that are not the documented edge (ADR 0027: a call in the air at a reading). A
 * refusal of X (sent at `s`, refused at `f`) is excused when either
 * - another payout Y was in the air at a reading X could have been decided on: Y sent at or before
 *   the reading's time and taken by the provider after it, the reading at most
 *   FUNDS_EDGE_WINDOW_MS before `s` (and at most FUNDS_READ_SKEW_MS after it: the claim's
 *   statement may see a reading committed after its transaction began), so the reading showed Y's
 *   money as still there; or
 * - X itself was in the air at a later reading (sent before it, refused after it) and another
 *   payout Z, sent after that reading, was taken before X's refusal: Z spent what the reading
 *   still showed of X's money.
 * A call in the air for at least the reading interval spans a reading even when the harness's
 * looks missed it. `why` says, per excused refusal, which call and which reading.
 */
export function unexcusedRefusals(
  refusals: readonly Refusal[],
  f: EdgeFacts,
): { excused: number; violations: string[]; why: string[] } {
  const air: { id: string; from: number; to: number }[] = [];
  for (const [id, from] of f.sentAt) {
    const to = f.takenAt.get(id);
    if (to !== undefined && to > from) air.push({ id, from, to });
  }
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  let excused = 0;
  const violations: string[] = [];
  const why: string[] = [];
  for (const r of refusals) {
    const own = f.batchOf.get(r.transferId) ?? r.transferId;
    const sent = f.sentAt.get(own);
    if (sent === undefined) {
      violations.push(
        `${r.transferId} (${r.endpoint}): refused for insufficient balance (debit ${r.debit}, available ${r.available}) and never sent by a funds-aware claim`,
      );
      continue;
    }
    const lo = sent - FUNDS_EDGE_WINDOW_MS;
    const hi = Math.min(r.at, sent + FUNDS_READ_SKEW_MS);
    let reason: string | undefined;
    for (const y of air) {
      if (y.id === own) continue;
      const seen = f.readings.find((t) => t >= y.from && t < y.to && t >= lo && t <= hi);
      const long = y.to - y.from >= FUNDS_READ_INTERVAL_MS && y.from <= hi && y.to >= lo;
      if (seen === undefined && !long) continue;
      reason = `${y.id} in the air ${secs(y.to - y.from)} ${seen === undefined ? 'for a whole reading interval' : `across a reading ${secs(sent - seen)} before it was sent`}`;
      break;
    }
    if (reason === undefined) {
      const seen = f.readings.find((t) => t >= sent && t < r.at);
      const from = seen ?? (r.at - sent >= FUNDS_READ_INTERVAL_MS ? sent : undefined);
      const z =
        from === undefined
          ? undefined
          : air.find((y) => y.id !== own && y.from >= from && (f.takenAt.get(y.id) ?? Infinity) <= r.at);
      if (z)
        reason = `itself in the air ${secs(r.at - sent)} ${seen === undefined ? 'for a whole reading interval' : 'across a reading'}, and ${z.id}, sent after it, taken first`;
    }
    if (reason !== undefined) {
      excused += 1;
      why.push(`${r.transferId}: ${reason}`);
      continue;
    }
    violations.push(
      `${r.transferId} (${r.endpoint}): refused for insufficient balance (debit ${r.debit}, available ${r.available}) ${secs(r.at - sent)} after it was sent, no call in the air at a reading near it`,
    );
  }
  return { excused, violations, why };
}

/**
 * Every held payout or batch left HELD_FOR_FUNDS: sent after its hold, or REJECTED
 * funds_hold_expired and never at the provider. `initiations(id)`: how many initiations of the id
 * (a batch: of its id or any entry's) the provider received.
 */
export function heldOutcomeViolations(
  rows: readonly HeldRow[],
  initiations: (row: HeldRow) => number,
): string[] {
  const out: string[] = [];
  for (const x of rows) {
    const shown = `${x.kind} ${x.id}`;
    const expired = x.status === 'REJECTED' && x.rejectedReason === 'funds_hold_expired';
    if (x.heldSince === null) {
      if (expired) out.push(`${shown}: REJECTED funds_hold_expired without ever being held`);
      continue;
    }
    if (x.status === 'HELD_FOR_FUNDS') {
      out.push(
        `${shown}: still HELD_FOR_FUNDS at the end (held since ${new Date(x.heldSince).toISOString()})`,
      );
      continue;
    }
    if (x.sentAt !== null) {
      if (x.sentAt < x.heldSince) out.push(`${shown}: sent before it was held`);
      if (expired) out.push(`${shown}: REJECTED funds_hold_expired after it was sent`);
      continue;
    }
    if (!expired) {
      out.push(
        `${shown}: left HELD_FOR_FUNDS unsent as ${x.status}${x.rejectedReason ? ` (${x.rejectedReason})` : ''}, not REJECTED funds_hold_expired`,
      );
      continue;
    }
    const n = initiations(x);
    if (n > 0)
      out.push(`${shown}: REJECTED funds_hold_expired, yet the provider received ${n} initiations of it`);
  }
  return out;
}

/**
 * Oldest first where they fit: for two held ones of the same kind, A created before B (by more
 * than FIFO_MARGIN_MS), when B was sent while A was still held (held at B's sending, and sent or
 * rejected only after it), A must be larger than B: it did not fit in the room B fitted in.
 */
export function fifoViolations(rows: readonly HeldRow[]): { pairs: number; violations: string[] } {
  let pairs = 0;
  const violations: string[] = [];
  for (const kind of ['payout', 'batch'] as const) {
    const held = rows
      .filter((x) => x.kind === kind && x.heldSince !== null)
      .sort((a, b) => a.createdAt - b.createdAt);
    const sent = held.filter((x) => x.sentAt !== null);
    for (const b of sent) {
      const bSent = b.sentAt ?? 0;
      for (const a of held) {
        if (a.createdAt >= b.createdAt - FIFO_MARGIN_MS) break;
        if ((a.heldSince ?? Infinity) > bSent) continue;
        const aLeft = a.sentAt ?? a.rejectedAt ?? Infinity;
        if (aLeft <= bSent) continue;
        pairs += 1;
        if (a.amount <= b.amount)
          violations.push(
            `${kind} ${b.id} (${rupees(b.amount)}) sent at ${new Date(bSent).toISOString()} while the older ${a.id} (${rupees(a.amount)}, held since ${new Date(a.heldSince ?? 0).toISOString()}) stayed held though it was no larger`,
          );
      }
    }
  }
  return { pairs, violations };
}

/**
 * The sandbox clock (sandbox ms) in wall ms, from samples of `GET /__sandbox/clock` (its offset
 * changes only when the run advances it): the offset of the last sample at or before `t`.
 */
export class SandboxClockMap {
  private readonly samples: { sandbox: number; offset: number }[] = [];

  add(wall: number, offsetMs: number): void {
    this.samples.push({ sandbox: wall + offsetMs, offset: offsetMs });
  }

  toWall(t: number): number {
    let offset = this.samples[0]?.offset ?? 0;
    for (const s of this.samples) {
      if (s.sandbox > t) break;
      offset = s.offset;
    }
    return t - offset;
  }
}
