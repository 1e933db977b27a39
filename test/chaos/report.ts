import { type ChaosConfig } from './config.js';
import { type Check } from './observe.js';

export interface Figures {
  readonly cfg: ChaosConfig;
  /** The code the run ran: a commit, and whether the work tree had changes on top. */
  readonly code: string;
  readonly durationMs: number;
  readonly settleMs: number;
  readonly settled: boolean;
  readonly stalled: boolean;
  readonly sent: {
    commands: number;
    duplicates: number;
    conflicts: number;
    hostile: number;
    messages: number;
    byKind: ReadonlyMap<string, number>;
    /** Commands of the v2 account with the transferId of one of the primary's (two payouts). */
    sharedIds: number;
    /** Per service account: its API generation, webhook format and its commands by kind. */
    byAccount: ReadonlyMap<
      string,
      { api: string; webhookVersion: string; commands: number; byKind: ReadonlyMap<string, number> }
    >;
  };
  readonly chaos: {
    kills: number;
    broker: number;
    postgres: number;
    rolling: number;
    rollingExit: string;
    crashes: readonly string[];
    restarts: ReadonlyArray<{
      instance: string;
      cause: string;
      readyMs?: number;
      firstWorkMs?: number;
      superseded?: boolean;
    }>;
  };
  readonly faults: { calls: number; injected: Record<string, number>; appliedInDoubt?: number };
  /** Issue 29: the provider's lifecycle in the mix (test/chaos/lifecycle.ts): what was on and what the run did. */
  readonly lifecycle: string;
  /** Issue 32: hold for funds on the third account (test/chaos/funds.ts), or 'off'. */
  readonly funds: string;
  readonly webhooks: {
    /** The sandbox's genuine webhooks (its counts), per account. */
    genuine: ReadonlyMap<string, Record<string, number>>;
    /** Times the run re-enabled the endpoint the provider had disabled, per account. */
    reenabled: ReadonlyMap<string, number>;
    /** The hostile sender's counts by variant. */
    hostile: Record<string, Record<string, number>>;
    /** `payouts.payout.contradicted` events, and a few of them. */
    contradicted: number;
    contradictedIds: readonly string[];
    /** Late applies still held when faults stopped (the clock was advanced past them). */
    lateApplies: number;
    wrongTerminals: number;
  };
  readonly provider: {
    total: number;
    accepted: number;
    distinctAccepted: number;
    byEndpoint: Record<string, { total: number; accepted: number }>;
    /** The same per service account: which endpoints, so which API generation, carried it. */
    byAccount: ReadonlyMap<string, Record<string, { total: number; accepted: number }>>;
  };
  readonly events: {
    total: number;
    redelivered: number;
    conflictEvents: number;
    finalStatus: ReadonlyMap<string, number>;
    requiresAttention: ReadonlyMap<string, number>;
    /** By kind, reason and whether the provider paid (ground truth). */
    attentionByTruth: ReadonlyMap<string, number>;
  };
  readonly dlq: {
    total: number;
    byReason: ReadonlyMap<string, number>;
    settledByEvent: number;
    maxCopies: number;
  };
  /** Issue 29: payouts left to a person, and negative states the provider contradicts. */
  readonly attention: {
    /** Payouts, batch entries and batches judged. */
    payouts: number;
    total: number;
    /** Batches judged, and left to a person (in `total` too). */
    batches: number;
    batchesLeft: number;
    byReason: ReadonlyMap<string, number>;
    settledByProvider: ReadonlyMap<string, number>;
    neverReceived: number;
    enforced: boolean;
    budget: number;
    contradictedByProvider: number;
    raised: number;
  };
  readonly ledger: { payouts: number; batches: number; outbox: number };
  readonly lag: number;
}

/** Per 10,000, rounded to one decimal (a short run has fewer than 10,000 payouts). */
const per10k = (n: number, of: number): number => (of === 0 ? 0 : Math.round((n * 100_000) / of) / 10);

const s = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);

function stats(xs: readonly number[]): string {
  if (xs.length === 0) return 'n/a';
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${s(at(0.5))}, p90 ${s(at(0.9))}, max ${s(sorted[sorted.length - 1])} (n=${xs.length})`;
}

export const list = (m: ReadonlyMap<string, number> | Record<string, number>) =>
  [...(m instanceof Map ? m : new Map(Object.entries(m)))]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

/** The figures and checks of a run, as markdown (docs/RELIABILITY.md) and for the console. */
export function renderReport(f: Figures, checks: readonly Check[]): string {
  const c = f.cfg;
  const passed = checks.filter((x) => x.passed).length;
  const ready = f.chaos.restarts.flatMap((r) => (r.readyMs === undefined ? [] : [r.readyMs]));
  const work = f.chaos.restarts.flatMap((r) => (r.firstWorkMs === undefined ? [] : [r.firstWorkMs]));
  const killReady = f.chaos.restarts
    .filter((r) => r.cause === 'SIGKILL')
    .flatMap((r) => (r.readyMs === undefined ? [] : [r.readyMs]));
  const rows: [string, string][] = [
    [
      'command',
      `\`${c.commandLine}\` (${c.variant} variant, seed ${c.seed}${c.outboxTransport === 'wal' ? ', OUTBOX_TRANSPORT=wal' : ''})`,
    ],
    ['code', f.code],
    [
      'run time',
      `${s(f.durationMs)} (sending window ${s(c.durationMs)}, settled ${f.settled ? `in ${s(f.settleMs)}` : f.stalled ? `NOT: stalled, nothing moved for 60 s` : 'NOT within the timeout'})`,
    ],
    ['commands', `${f.sent.commands} (${list(f.sent.byKind)})`],
    [
      'commands per account',
      [...f.sent.byAccount]
        .map(
          ([a, x]) => `${a} (API ${x.api}, ${x.webhookVersion} webhooks): ${x.commands} (${list(x.byKind)})`,
        )
        .join('; ') + `; ${f.sent.sharedIds} transfer ids used by both accounts (two payouts each)`,
    ],
    ['exact duplicates / conflicting reuses', `${f.sent.duplicates} / ${f.sent.conflicts}`],
    ['hostile messages (same partitions)', String(f.sent.hostile)],
    ['messages produced', String(f.sent.messages)],
    ['SIGKILLs of service instances', `${f.chaos.kills} of ${c.kills}`],
    [
      'broker restarts / Postgres restarts',
      `${f.chaos.broker} of ${c.brokerRestarts} / ${f.chaos.postgres} of ${c.postgresRestarts}`,
    ],
    [
      'SIGTERM rolling restart',
      c.rollingRestart
        ? `${f.chaos.rolling} (${f.chaos.rollingExit.trim() || 'n/a'})`
        : 'not in this variant',
    ],
    [
      'instances that exited by themselves (restarted like a supervisor would)',
      f.chaos.crashes.length
        ? `${f.chaos.crashes.length}: ${f.chaos.crashes.slice(0, 5).join('; ')}`
        : 'none',
    ],
    ['restart -> ready (after SIGKILL)', stats(killReady)],
    [
      'restarts started again before they were ready (their next start is judged)',
      String(f.chaos.restarts.filter((r) => r.superseded).length),
    ],
    ['restart -> ready (all restarts)', stats(ready)],
    ['restart -> first command processed', stats(work)],
    [
      'provider faults injected',
      `${Object.values(f.faults.injected).reduce((a, b) => a + b, 0)} of ${f.faults.calls} initiations (rate ${c.faultRate}): ${list(f.faults.injected)}`,
    ],
    [
      'in-doubt faults (5xx, 520, hang) that applied the transfer anyway',
      c.inDoubtApply > 0
        ? `${f.faults.appliedInDoubt ?? 'not reported'} (share asked ${c.inDoubtApply})`
        : 'none asked (--in-doubt-apply=0)',
    ],
    ['provider lifecycle (long waits, --lifecycle)', f.lifecycle],
    ['hold for funds (--funds-hold)', f.funds],
    [
      'genuine webhooks (sandbox), per account',
      [...f.webhooks.genuine]
        .map(
          ([a, g]) =>
            `${a} (${f.sent.byAccount.get(a)?.webhookVersion ?? '?'}): ${g['emitted'] ?? 0} emitted, ${g['delivered'] ?? 0} delivered, ${g['failedAttempts'] ?? 0} failed attempts, ${g['skipped'] ?? 0} skipped while disabled (endpoint re-enabled ${f.webhooks.reenabled.get(a) ?? 0} times)`,
        )
        .join('; '),
    ],
    [
      'hostile webhooks on the public port (sent / answered 2xx / 4xx / 5xx / no answer)',
      Object.entries(f.webhooks.hostile)
        .map(
          ([k, v]) =>
            `${k} ${v['sent'] ?? 0}/${v['accepted'] ?? 0}/${v['refused'] ?? 0}/${v['serverError'] ?? 0}/${v['noAnswer'] ?? 0}${k === 'v1-reaimed' ? ` (${v['atKnownId'] ?? 0} at another payout's id)` : ''}`,
        )
        .join(', ') || `none (rate ${c.hostileWebhooks}/s)`,
    ],
    [
      'late applies still held when faults stopped (clock advanced past them)',
      String(f.webhooks.lateApplies),
    ],
    ['negative terminal states published for payouts the provider paid', String(f.webhooks.wrongTerminals)],
    [
      '`payouts.payout.contradicted` events',
      `${f.webhooks.contradicted}${f.webhooks.contradictedIds.length ? `: ${f.webhooks.contradictedIds.join(', ')}` : ''}`,
    ],
    [
      'provider initiations received / accepted',
      `${f.provider.total} / ${f.provider.accepted} (${f.provider.distinctAccepted} distinct ids)`,
    ],
    [
      'initiations per endpoint (total/accepted)',
      Object.entries(f.provider.byEndpoint)
        .map(([k, v]) => `${k} ${v.total}/${v.accepted}`)
        .join(', '),
    ],
    [
      'initiations per endpoint and account (total/accepted)',
      [...f.provider.byAccount]
        .map(
          ([a, eps]) =>
            `${a} (API ${f.sent.byAccount.get(a)?.api ?? '?'}): ${
              Object.entries(eps)
                .map(([k, v]) => `${k} ${v.total}/${v.accepted}`)
                .join(', ') || 'none'
            }`,
        )
        .join('; '),
    ],
    [
      'events',
      `${f.events.total} (${f.events.redelivered} redelivered, ${f.events.conflictEvents} conflict events)`,
    ],
    [
      'negative states the provider contradicts / raised as `payouts.payout.contradicted` in their watch',
      `${f.attention.contradictedByProvider} / ${f.attention.raised}`,
    ],
    ['final status per command', list(f.events.finalStatus)],
    ['REQUIRES_ATTENTION by reason', list(f.events.requiresAttention)],
    ['REQUIRES_ATTENTION by kind, reason and ground truth', list(f.events.attentionByTruth)],
    [
      'escalations per 10,000 payouts, batch entries and batches, by reason (a batch: `batch <reason>`)',
      `${per10k(f.attention.total, f.attention.payouts)} (${f.attention.total} of ${f.attention.payouts}; ${f.attention.batchesLeft} of ${f.attention.batches} batches; budget ${f.attention.budget}): ${list(new Map([...f.attention.byReason].map(([k, n]) => [k, per10k(n, f.attention.payouts)])))}`,
    ],
    [
      'left to a person although the provider had a terminal answer',
      `${[...f.attention.settledByProvider.values()].reduce((a, b) => a + b, 0)} (${list(f.attention.settledByProvider)}; ${f.attention.enforced ? 'a check' : 'not checked: --attention-settled=false'}); ${f.attention.neverReceived} the provider never received`,
    ],
    [
      'dead letters by reason',
      `${f.dlq.total}: ${list(f.dlq.byReason)}; ${f.dlq.settledByEvent} well-formed hostile commands settled by an event instead`,
    ],
    [
      'ledger rows',
      `${f.ledger.payouts} payouts, ${f.ledger.batches} batches, ${f.ledger.outbox} outbox rows`,
    ],
    ['consumer lag at the end', String(f.lag)],
  ];
  const out: string[] = [
    '# Reliability: the chaos run',
    '',
    '<!-- Written by `npm run chaos` (test/chaos/); the figures of the last full run. -->',
    '',
    'Real processes, nothing mocked: a private PostgreSQL cluster (initdb, pg_ctl) and Kafka broker,',
    'the provider sandbox with random faults, and two payout service instances on one database,',
    'killed and restarted while commands, hostile messages and hostile webhooks arrive. The service',
    'has two provider accounts, one per API generation: `default` on v1 with v1 webhooks and `v2` on',
    'v2 with v2 webhooks, each its own merchant at the sandbox; commands of every kind are spread over',
    "both. Checked per (account, id) from ground truth: the sandbox's record of initiations and of",
    'what it paid, the events and dead-letter topics, the ledger and the consumer lag.',
    '',
    '| figure | value |',
    '| --- | --- |',
    ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`),
    '',
    '## Checks',
    '',
    '| check | checked | result | examples |',
    '| --- | --- | --- | --- |',
    ...checks.map(
      (x) =>
        `| ${x.name} | ${x.checked} | ${x.passed ? 'passed' : `**FAILED: ${x.violations}**`} | ${x.examples.join('<br>').replace(/\|/g, '\\|')} |`,
    ),
    '',
    `${passed} passed, ${checks.length - passed} failed`,
    '',
    '## Payouts left to a person',
    '',
    'REQUIRES_ATTENTION by kind, reason and ground truth says whether a status check could have',
    'settled a payout ("provider: paid" or "not paid" is the sandbox\'s record). Why each reason needs a',
    'person (issue 29): `refused_on_resend`: a re-send the provider refused after an earlier attempt',
    'that may have reached it (`maybe_reached`), still unknown to the status endpoint after',
    '`REFUSED_RESEND_SETTLE_MS` (12 s here): the refusal may be the sign the first attempt was paid',
    '("insufficient balance" because it took the balance), so neither FAILED nor a re-send is safe;',
    '`not_received_unconfirmed` / `not_received_by_provider`: an internal transfer the status endpoint',
    'never knew, which the provider does not deduplicate, FAILED automatically only on accounts whose',
    'operator confirmed that endpoint knows internal transfers (`notReceivedFails`; on in this run, as',
    "the sandbox's does), then watched; `in_doubt_resend_unsafe` and `no_status_endpoint`: a self",
    'withdrawal, which the provider cannot be asked about; `reconciliation_schedule_exhausted`: checks',
    "kept answering unclearly; `transfer_id_held_by_another_transfer`: the provider's record under the",
    "id is another transfer's; `queued_past_provider_maximum`, `approval_pending_too_long`,",
    '`not_settled_after_next_working_day`: the provider held it longer than it documents. A payout in',
    'REQUIRES_ATTENTION whose kind has a status endpoint, and a batch, is still asked (`ATTENTION_WATCH_SCHEDULE`) and',
    'settles itself when the provider answers (a batch: every entry final); a batch is checked by its',
    'entries\' longest open wait at the provider; "left to a person although the provider had a terminal',
    'answer" counts those that did not, and is a check of the run; "the provider never received" ones',
    'are not among them (a "not found" settles nothing).',
    '',
    '## Running it',
    '',
    '`npm run chaos` is the full run: 10,000 commands of every kind (2 % exact duplicates, 1 %',
    'conflicting reuses), 10,000 hostile messages on the same partitions, 50 SIGKILLs, 3 broker and',
    '3 Postgres restarts, a SIGTERM rolling restart and 20 % provider faults (applied but answer lost,',
    '5xx after applying, 5xx, 520, hangs, answers slower than the lease, and, for issue 21: a call',
    'answered by a reset and applied 2-8 s later, an applied transfer the status endpoints do not know',
    'for 4 s, and that plus a re-send refused with "insufficient balance", "duplicate" or a 404).',
    "The sandbox sends each merchant's genuine webhooks (the `default` account's in v1 unless",
    "`--webhook-version=v2`, the `v2` account's in v2) to that account's path on the service's public",
    "webhooks port (a balancer in front of both instances' webhook listeners), and its hostile sender",
    'replays captured ones there at 20 a second (shared by the accounts) while commands arrive: v1',
    'verbatim and re-aimed at another payout (a still-valid signature), v2 with a stale timestamp and',
    'with a fresh timestamp but the old signature. Before judging, the sandbox clock is advanced past',
    'every late apply still held and the service settles; then no FAILED, REJECTED or REVERSED may',
    'have been published (any version, not only the last) for an id the provider paid and did not',
    'return (`GET /__sandbox/outcomes`); each violation names the path from the state history.',
    "`payouts.payout.contradicted` events are counted, and every negative state the provider's",
    'final record contradicts (it paid, or still holds the transfer on its way) must have been raised',
    'as one within its watch (the longest `*_WATCH_SCHEDULE` of the run plus a minute). Payouts and',
    'batch entries left in REQUIRES_ATTENTION are counted per 10,000 by reason and held to',
    '`--attention-budget` (200 per 10,000); with `--attention-settled=true` none of a kind with a status',
    'endpoint may be left there while the provider has a terminal answer for it (SUCCESS, FAILED,',
    'REJECTED, REVERSED; off until REQUIRES_ATTENTION payouts are still asked, reported either way).',
    'The run counts what it asked of its chaos and fails when it did not happen: a SIGKILL delivered',
    'to a live pid and the process seen gone, the broker seen down and up, Postgres seen down and up',
    'with a new postmaster start time, and the faults the sandbox reports it injected (random mode on',
    'at the rate asked, about rate x calls, every kind when about 10 of each are expected);',
    '`--sabotage=kill,broker,postgres,faults` breaks those steps on purpose to show the run fails.',
    "The provider's lifecycle (issue 29) joins the mix with `--lifecycle=all` (or a list of",
    '`error-then-paid`, `queued-until-funded`, `approval`, `next-working-day`, `late-reversal`,',
    '`entry-id-reused`; test/chaos/lifecycle.ts) and `--in-doubt-apply=0.5` (the share of 5xx, 520',
    'and hang faults the sandbox applies anyway); the full run has both, the short one neither.',
    'Hold for funds (issue 32, `--funds-hold=true`, on in both runs; test/chaos/funds.ts): a third',
    'account, `funds` (v1), has holding on (`FUNDS_HOLD`, maximum hold 60s, 20s in the short run;',
    'readings every second, a fee of Rs. 5.90 a transfer) and one command in five; its merchant charges Rs. 5 and its',
    'tax per transfer, starts with Rs. 20,000, is funded (`POST /__sandbox/fund`) every',
    '5 s with a share of what its commands ask for and with everything at the end, and refuses what does',
    'not fit. The run fails when nothing was held or released, when the provider refused one of its',
    'payouts for insufficient balance (`GET /__sandbox/balance/refusals`) without a call in the air at',
    'a reading near it (the documented edge), when a held one ended other than sent after its hold or',
    'REJECTED `funds_hold_expired` with no initiation at the provider, or when a younger one was sent',
    'while an older one no larger stayed held (oldest first where they fit). `npm test` runs the short',
    'variant (`test/chaos/chaos.int-spec.ts`: 1,000 commands, 5 kills, one broker and one Postgres',
    'restart, 1,000 hostile messages). Every figure can be set: `npm run chaos -- --commands=2000',
    '--kills=10 --broker-restarts=1 --postgres-restarts=1 --rolling-restart=false --hostile=500',
    '--hostile-webhooks=20 --webhook-version=v1 --outbox-transport=table',
    '--fault-rate=0.2 --seed=7 --duration=120000 --lease=5000 --base-port=20700',
    '--attention-budget=200 --attention-settled=true --lifecycle=all --in-doubt-apply=0.3',
    '--funds-hold=true` (or `CHAOS_COMMANDS`,',
    '`CHAOS_KILLS`, ...; `--short` starts from the short variant). Logs: `.run/logs/chaos/` (each',
    "service instance's log with a line per start, kill and exit; the sandbox, Postgres and broker",
    'logs; `report.md`). `--outbox-transport=wal` runs the services with the WAL outbox (ADR 0023)',
    'on a cluster with `wal_level=logical`.',
    '',
  ];
  return out.join('\n');
}

/**
 * Marks the start of the part of docs/RELIABILITY.md that people write (the terminal-state audit):
 * a run rewrites everything above it and keeps everything from it on.
 */
export const KEPT_MARKER = '<!-- Kept across chaos runs: everything below is written by hand. -->';

/** The hand-written part of a report file (from KEPT_MARKER on), or '' when it has none. */
export function keptSection(file: string): string {
  const at = file.indexOf(KEPT_MARKER);
  return at < 0 ? '' : `\n${file.slice(at)}`;
}

/** A plain-text rendering for the console. */
export function consoleReport(checks: readonly Check[]): string {
  const lines: string[] = [];
  for (const x of checks) {
    lines.push(
      `${x.passed ? 'ok    ' : 'FAILED'}  ${x.name}  [${x.checked}]${x.passed ? '' : `: ${x.violations} violations`}`,
    );
    for (const e of x.examples) lines.push(`          - ${e}`);
  }
  const passed = checks.filter((x) => x.passed).length;
  lines.push('', `${passed} passed, ${checks.length - passed} failed`);
  return lines.join('\n');
}
