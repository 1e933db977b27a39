import { type IHeaders, type Kafka } from 'kafkajs';
import { type PayoutEvent } from '#contracts';
import { keyOf, PRIMARY_ACCOUNT, type Hostile, type PlannedCommand } from './generate.js';

export interface TopicMessage {
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly value: Buffer | null;
  readonly headers: Record<string, string>;
}

function headersOf(h: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? v.map((x) => x.toString()).join(',') : v.toString();
  }
  return out;
}

/** Every message of a topic, from the beginning to its end as of now, in partition order. */
export async function readTopic(kafka: Kafka, topic: string, timeoutMs = 120_000): Promise<TopicMessage[]> {
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const want = new Map(ends.map((e) => [e.partition, BigInt(e.high)]));
  const done = new Set([...want].filter(([, high]) => high === 0n).map(([p]) => p));
  const out: TopicMessage[] = [];
  if (done.size === want.size) return out;
  const consumer = kafka.consumer({
    groupId: `chaos-reader-${topic}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    maxBytes: 50 * 1024 * 1024,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) {
        out.push({
          partition: batch.partition,
          offset: m.offset,
          key: m.key?.toString('utf8') ?? null,
          value: m.value,
          headers: headersOf(m.headers),
        });
        if (BigInt(m.offset) + 1n >= (want.get(batch.partition) ?? 0n)) done.add(batch.partition);
      }
      if (done.size === want.size) finish();
    },
  });
  const timer = setTimeout(finish, timeoutMs);
  await finished;
  clearTimeout(timer);
  await consumer.disconnect();
  if (done.size !== want.size) throw new Error(`reading ${topic}: did not reach the end in ${timeoutMs} ms`);
  out.sort((a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)));
  return out;
}

/** Committed offsets of the service's group against the end of the commands topic. */
export async function consumerLag(kafka: Kafka, groupId: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    let lag = 0n;
    for (const e of ends) {
      const c = committed?.partitions.find((p) => p.partition === e.partition)?.offset ?? '-1';
      const at = BigInt(c) < 0n ? 0n : BigInt(c);
      lag += BigInt(e.high) - at;
    }
    return Number(lag);
  } finally {
    await admin.disconnect();
  }
}

export interface Check {
  readonly name: string;
  readonly passed: boolean;
  /** What was checked, as a figure ("10000 commands"). */
  readonly checked: string;
  readonly violations: number;
  /** A few examples with their causes. */
  readonly examples: readonly string[];
}

export function check(name: string, checked: string, violations: readonly string[]): Check {
  return {
    name,
    checked,
    passed: violations.length === 0,
    violations: violations.length,
    examples: violations.slice(0, 5),
  };
}

const PAYOUT_TERMINAL = new Set(['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION']);
const BATCH_TERMINAL = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REQUIRES_ATTENTION']);

export interface EventAnalysis {
  readonly total: number;
  readonly unparseable: number;
  readonly redelivered: number;
  readonly conflicts: Map<string, number>;
  /**
   * Commands refused at intake because another transfer of the account holds their id (issue 29,
   * `transfer_id_in_use`): their conflict event is their answer, REJECTED, nothing recorded.
   */
  readonly refusedInUse: Map<string, PayoutEvent>;
  /** Last event per command identity (account|id). */
  readonly last: Map<string, PayoutEvent>;
  /** Last event per batch entry (account|entry id). */
  readonly lastItem: Map<string, PayoutEvent>;
  readonly orderViolations: string[];
  readonly secretViolations: string[];
  readonly finalStatus: Map<string, number>;
  readonly requiresAttention: Map<string, number>;
}

/**
 * Versions per entity must go 1, 2, 3... in the order the topic holds them: a repeat of the
 * latest version is a redelivery (at-least-once), anything else is a gap or a reordering.
 * `commands` is keyed by `keyOf(account, identity)`. `repeats: 'any'` (OUTBOX_TRANSPORT=wal,
 * ADR 0023) also takes a repeat of an earlier version already seen for a redelivery: a stream
 * restarted from the slot's confirmed position sends a run of a key's events again; the first
 * arrival of each version must still be in order.
 */
export function analyseEvents(
  messages: readonly TopicMessage[],
  commands: ReadonlyMap<string, PlannedCommand>,
  repeats: 'latest' | 'any' = 'latest',
): EventAnalysis {
  const state = new Map<string, { partition: number; expected: number; ids: Set<string> }>();
  const last = new Map<string, PayoutEvent>();
  const lastItem = new Map<string, PayoutEvent>();
  const conflicts = new Map<string, number>();
  const refusedInUse = new Map<string, PayoutEvent>();
  const orderViolations: string[] = [];
  const secretViolations: string[] = [];
  let unparseable = 0;
  let redelivered = 0;
  for (const m of messages) {
    let e: PayoutEvent;
    const text = m.value?.toString('utf8') ?? '';
    try {
      e = JSON.parse(text) as PayoutEvent;
    } catch {
      unparseable += 1;
      continue;
    }
    const account = e.data.accountId;
    const batchId = e.data.batchTransferId;
    const own = commands.get(keyOf(account, batchId ?? e.subject));
    for (const s of own?.secrets ?? []) {
      if (text.includes(s))
        secretViolations.push(`${e.id}: carries a secret of ${own?.identity} (${mask(s)})`);
    }
    if (e.type === 'payouts.command.conflict') {
      conflicts.set(`${account}|${e.subject}`, (conflicts.get(`${account}|${e.subject}`) ?? 0) + 1);
      if (e.data.reason === 'transfer_id_in_use') refusedInUse.set(`${account}|${e.subject}`, e);
      continue;
    }
    // A provider notice (low balance, a bank incident) is keyed by the account and has no version.
    if (e.type.startsWith('payouts.provider.')) continue;
    const entity =
      e.data.kind === 'batch_entry' ? `${account}|${batchId ?? '?'}/${e.subject}` : `${account}|${e.subject}`;
    let s = state.get(entity);
    if (!s) {
      // A batch entry's version 1 (RECEIVED) is announced by its batch's event, not its own.
      s = { partition: m.partition, expected: e.data.kind === 'batch_entry' ? 2 : 1, ids: new Set() };
      state.set(entity, s);
    }
    const v = e.data.version;
    if (m.partition !== s.partition) {
      orderViolations.push(`${entity}: v${v} on partition ${m.partition}, earlier ones on ${s.partition}`);
    }
    if (v === s.expected) {
      s.expected += 1;
      s.ids.add(e.id);
    } else if ((v === s.expected - 1 || repeats === 'any') && s.ids.has(e.id)) {
      redelivered += 1;
    } else if (v > s.expected) {
      orderViolations.push(`${entity}: gap, v${v} (${e.data.status}) after v${s.expected - 1}`);
      s.expected = v + 1;
      s.ids.add(e.id);
    } else {
      orderViolations.push(`${entity}: reordered, v${v} (${e.data.status}) after v${s.expected - 1}`);
    }
    const latest = e.data.kind === 'batch_entry' ? lastItem : last;
    const prev = latest.get(`${account}|${e.subject}`);
    if (!prev || prev.data.version <= v) latest.set(`${account}|${e.subject}`, e);
  }
  const finalStatus = new Map<string, number>();
  const requiresAttention = new Map<string, number>();
  for (const e of last.values()) {
    const k = `${e.data.kind === 'batch_transfer' ? 'batch ' : ''}${e.data.status}`;
    finalStatus.set(k, (finalStatus.get(k) ?? 0) + 1);
    if (e.data.status === 'REQUIRES_ATTENTION') {
      const reason = e.data.reason ?? '(no reason)';
      requiresAttention.set(reason, (requiresAttention.get(reason) ?? 0) + 1);
    }
  }
  return {
    total: messages.length,
    unparseable,
    redelivered,
    conflicts,
    refusedInUse,
    last,
    lastItem,
    orderViolations,
    secretViolations,
    finalStatus,
    requiresAttention,
  };
}

export function isTerminal(e: PayoutEvent | undefined): boolean {
  if (!e) return false;
  return e.data.kind === 'batch_transfer'
    ? BATCH_TERMINAL.has(e.data.status)
    : PAYOUT_TERMINAL.has(e.data.status);
}

/** Shows a secret's length and last two characters only. */
export function mask(s: string): string {
  return `${s.length} chars ending ${s.slice(-2)}`;
}

export interface DeadLetterAnalysis {
  readonly total: number;
  readonly byReason: Map<string, number>;
  readonly missing: string[];
  readonly withoutReason: string[];
  readonly secretLeaks: string[];
  readonly settledByEvent: number;
  /** Most dead letters seen for one hostile message (a batch retried re-sends its dead letters). */
  readonly maxCopies: number;
}

/** Every hostile message is in the DLQ (found by the keyed digest of its bytes) with a reason, and nothing secret. */
export function analyseDeadLetters(
  messages: readonly TopicMessage[],
  hostile: readonly Hostile[],
  last: ReadonlyMap<string, PayoutEvent>,
): DeadLetterAnalysis {
  const bySha = new Map<string, TopicMessage>();
  const copies = new Map<string, number>();
  const byReason = new Map<string, number>();
  for (const m of messages) {
    const sha = m.headers['dlq-original-hmac-sha256'];
    if (sha) {
      bySha.set(sha, m);
      copies.set(sha, (copies.get(sha) ?? 0) + 1);
    }
    const reason = m.headers['dlq-reason'] ?? '(none)';
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  const missing: string[] = [];
  const withoutReason: string[] = [];
  const secretLeaks: string[] = [];
  let settledByEvent = 0;
  for (const h of hostile) {
    const m = bySha.get(h.hmac);
    if (!m) {
      // Hostile commands name no account: the primary's.
      const e = h.identity ? last.get(keyOf(PRIMARY_ACCOUNT, h.identity)) : undefined;
      if (e && isTerminal(e) && e.data.status !== 'SUCCESS') {
        settledByEvent += 1;
        continue;
      }
      missing.push(
        `hostile #${h.n} (${h.category}${h.identity ? `, ${h.identity}` : ''}) not dead-lettered` +
          (e ? `; its last event is ${e.data.status}` : ''),
      );
      continue;
    }
    if (!m.headers['dlq-reason']) withoutReason.push(`hostile #${h.n} (${h.category}): no dlq-reason header`);
    const text = `${m.value?.toString('latin1') ?? ''}\n${m.value?.toString('utf8') ?? ''}\n${Object.values(m.headers).join('\n')}`;
    const leaked = h.secrets.filter((s) => text.includes(s.value)).map((s) => s.what);
    if (leaked.length) {
      secretLeaks.push(
        `hostile #${h.n} (${h.category}, reason ${m.headers['dlq-reason'] ?? '?'}): ${leaked.join(', ')} in the dead letter`,
      );
    }
  }
  const maxCopies = Math.max(0, ...hostile.map((h) => copies.get(h.hmac) ?? 0));
  return { total: messages.length, byReason, missing, withoutReason, secretLeaks, settledByEvent, maxCopies };
}

export interface ProviderTruth {
  /** Transfers the provider holds, by `keyOf(account, id)` (the service's account), with their status now. */
  readonly transfers: ReadonlyMap<string, { endpoint: string; status: string }>;
  /** Accepted initiations per `keyOf(account, id)` (internal transfers and withdrawals have no transfer record). */
  readonly accepted: ReadonlyMap<string, number>;
}

/** Where money actually moved at the provider, against the final state the service published. */
export function providerAgreement(
  commands: readonly PlannedCommand[],
  ev: Pick<EventAnalysis, 'last' | 'lastItem'>,
  truth: ProviderTruth,
  /** Keys (`keyOf(account, id)`) judged elsewhere: a batch entry id reused by a single payout. */
  skip: ReadonlySet<string> = new Set(),
): {
  checked: number;
  attention: number;
  /** Payouts left to a person, by kind, reason and what the provider holds: could a check have settled them? */
  attentionByTruth: Map<string, number>;
  violations: string[];
} {
  const violations: string[] = [];
  const attentionByTruth = new Map<string, number>();
  let checked = 0;
  let attention = 0;
  const compare = (
    account: string,
    id: string,
    label: string,
    kind: string,
    e: PayoutEvent | undefined,
    recordless: boolean,
  ) => {
    if (!e || skip.has(keyOf(account, id))) return;
    const ours = e.data.status;
    const t = truth.transfers.get(keyOf(account, id));
    const theirs = recordless
      ? (truth.accepted.get(keyOf(account, id)) ?? 0) > 0
        ? 'SUCCESS'
        : 'none'
      : (t?.status ?? 'none');
    const paid = theirs === 'SUCCESS' || theirs === 'PENDING' || theirs === 'RECEIVED';
    if (ours === 'REQUIRES_ATTENTION') {
      attention += 1;
      const k = `${kind} ${e.data.reason ?? '(no reason)'} (provider: ${paid ? 'paid' : 'not paid'})`;
      attentionByTruth.set(k, (attentionByTruth.get(k) ?? 0) + 1);
      return;
    }
    checked += 1;
    const ok =
      ours === 'SUCCESS'
        ? theirs === 'SUCCESS'
        : ours === 'REVERSED'
          ? theirs === 'REVERSED' || theirs === 'FAILED'
          : ours === 'FAILED' || ours === 'REJECTED'
            ? !paid
            : true;
    if (!ok)
      violations.push(`${account}/${id} (${label}): the service says ${ours}, the provider says ${theirs}`);
  };
  for (const c of commands) {
    if (c.kind === 'batch_transfer') {
      for (const entry of c.entries) {
        const e = ev.lastItem.get(keyOf(c.account, entry));
        compare(c.account, entry, `${c.label} entry`, 'batch_entry', e, false);
      }
    } else {
      const recordless = c.kind === 'internal_transfer' || c.kind === 'self_withdrawal';
      const e = ev.last.get(keyOf(c.account, c.identity));
      compare(c.account, c.identity, c.label, c.kind, e, recordless);
    }
  }
  return { checked, attention, attentionByTruth, violations };
}

/** The provider's record of one id (`GET /__sandbox/outcomes`; `account` is the merchant's client id). */
export interface ProviderOutcome {
  readonly account: string;
  readonly transferId: string;
  readonly endpoint: string;
  readonly initiations: number;
  readonly accepted: number;
  readonly status: string;
  readonly reached: readonly string[];
  readonly paid: number;
  readonly returned: boolean;
  readonly failed: boolean;
}

/** A FAILED, REJECTED or REVERSED the service published: upstream may pay again on any of them. */
export interface NegativePublished {
  /** The service account it was published for. */
  readonly account: string;
  /** The provider id: the payout's transferId, or a batch entry's. */
  readonly id: string;
  readonly kind: string;
  readonly status: string;
  readonly version: number;
  readonly type: string;
  readonly reason: string | undefined;
  /** When it was published (the event's `time`, ms). */
  readonly at?: number;
}

const NEGATIVE = new Set(['FAILED', 'REJECTED', 'REVERSED']);
export const CONTRADICTED = 'payouts.payout.contradicted';

/**
 * Every negative terminal state ever published for a payout or batch entry (any version, not
 * only the last: a consumer acts on each), by `keyOf(account, id)`, and every
 * `payouts.payout.contradicted` event (the service saying a terminal state it published was
 * wrong). Batches themselves are not payouts.
 */
export function negativesPublished(messages: readonly TopicMessage[]): {
  negatives: Map<string, NegativePublished[]>;
  contradicted: PayoutEvent[];
} {
  const negatives = new Map<string, NegativePublished[]>();
  const contradicted: PayoutEvent[] = [];
  const seen = new Set<string>();
  for (const m of messages) {
    let e: PayoutEvent;
    try {
      e = JSON.parse(m.value?.toString('utf8') ?? '') as PayoutEvent;
    } catch {
      continue;
    }
    if (seen.has(e.id)) continue; // a redelivery
    seen.add(e.id);
    if (e.type === CONTRADICTED) {
      contradicted.push(e);
      continue;
    }
    if (e.data.kind === 'batch_transfer' || !NEGATIVE.has(e.data.status)) continue;
    const key = keyOf(e.data.accountId, e.subject);
    const list = negatives.get(key) ?? [];
    list.push({
      account: e.data.accountId,
      id: e.subject,
      kind: e.data.kind,
      status: e.data.status,
      version: e.data.version,
      type: e.type,
      reason: e.data.reason,
      at: Date.parse(e.time),
    });
    negatives.set(key, list);
  }
  return { negatives, contradicted };
}

/**
 * The money-safety invariant: no FAILED, REJECTED or REVERSED published for an id the provider
 * paid and did not return. Every map is keyed by `keyOf(account, id)` (the service's account):
 * `outcomes` the provider's record, `paths` how the service got there (its state history).
 */
export function wrongTerminals(
  negatives: ReadonlyMap<string, readonly NegativePublished[]>,
  outcomes: ReadonlyMap<string, ProviderOutcome>,
  label: (key: string) => string,
  paths: ReadonlyMap<string, string> = new Map(),
): string[] {
  const out: string[] = [];
  for (const [key, published] of negatives) {
    const o = outcomes.get(key);
    if (!o || o.paid === 0 || o.returned) continue;
    const what = published
      .map((n) => `${n.status} v${n.version}${n.reason ? ` (${n.reason})` : ''}`)
      .join(', ');
    const path = paths.get(key);
    out.push(
      `${key.replace('|', '/')} (${label(key)}): published ${what}; the provider paid it ${o.paid}x (${o.accepted} of ${o.initiations} initiations accepted, now ${o.status}, reached ${o.reached.join('>') || '-'})${path ? `; path: ${path}` : ''}`,
    );
  }
  return out;
}
