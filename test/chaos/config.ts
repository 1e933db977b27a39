/** The scale of a chaos run: from the environment (CHAOS_*) or the command line (--commands=...). */
export interface ChaosConfig {
  /** Distinct valid commands (duplicates and conflicting reuses come on top). */
  readonly commands: number;
  /** Share of commands sent again unchanged, and sent again with a different request. */
  readonly duplicateRate: number;
  readonly conflictRate: number;
  readonly hostile: number;
  readonly kills: number;
  readonly brokerRestarts: number;
  readonly postgresRestarts: number;
  readonly rollingRestart: boolean;
  /** Share of provider initiations that get a fault. */
  readonly faultRate: number;
  /**
   * Hostile webhooks per second on the service's public webhooks port while commands arrive:
   * replays of captured genuine ones, v1 verbatim and re-aimed at another payout, v2 stale and
   * badly signed (the sandbox's hostile sender). 0: none.
   */
  readonly hostileWebhooks: number;
  /** The format of the primary (v1) account's genuine webhooks; the v2 account's are v2 (both are replayed by the hostile sender). */
  readonly webhookVersion: string;
  readonly seed: number;
  /** How long commands keep coming: the chaos happens over this window. */
  readonly durationMs: number;
  /** How long the run may take to settle after the last command and fault. */
  readonly settleTimeoutMs: number;
  readonly leaseMs: number;
  /**
   * Ports: Postgres base+32, Kafka base+92 (+93 controller), sandbox base+80, services base+81/82,
   * the public webhooks port (a balancer) base+83, the instances' webhook listeners base+84/85.
   * The default, 20700, is outside the range test/foundation/readiness picks its broker port from.
   */
  readonly basePort: number;
  readonly logLevel: string;
  /** Where the figures go (a markdown file), or '' for nowhere. */
  readonly reportFile: string;
  /** The command line shown with the figures. */
  readonly commandLine: string;
  readonly variant: 'full' | 'short';
  /**
   * The services' OUTBOX_TRANSPORT (ADR 0023): `wal` runs the private cluster with
   * wal_level=logical and publishes events through its replication slot.
   */
  readonly outboxTransport: string;
  /**
   * A test of the run itself, never for a real run: a comma list of chaos steps to break on
   * purpose (`kill`, `broker`, `postgres`, `faults`): the step is asked for and then does not
   * happen, as a failed kill or restart would. The run must then fail (its accounting of what
   * happened). '' (the default): nothing broken.
   */
  readonly sabotage: string;
  /**
   * Issue 29 (b): fail the run when a payout of a kind with a status endpoint is left in
   * REQUIRES_ATTENTION while the provider has a terminal answer for it. Off until REQUIRES_ATTENTION
   * payouts are still asked (the goal is on); the figure is reported either way.
   */
  readonly attentionSettled: boolean;
  /** Issue 29 (c): escalations (REQUIRES_ATTENTION) per 10,000 payouts and batch entries above this fail the run. */
  readonly attentionBudget: number;
  /**
   * Issue 29: the provider's long waits and in-doubt answers in the fault mix (test/chaos/lifecycle.ts),
   * a comma list of LIFECYCLE_FAULTS or 'all'; '' (the default) leaves them out.
   */
  readonly lifecycle: string;
  /** Share of the sandbox's in-doubt faults (520 and alike) that apply the transfer anyway; 0: none. */
  readonly inDoubtApply: number;
  /**
   * Issue 32: a third account, `funds`, with holding for funds on (FUNDS_HOLD), a limited balance
   * funded during the run, and the hold's checks (test/chaos/funds.ts). Off: two accounts, as before.
   */
  readonly fundsHold: boolean;
}

export const FULL: Omit<ChaosConfig, 'commandLine' | 'reportFile'> = {
  variant: 'full',
  commands: 10_000,
  duplicateRate: 0.02,
  conflictRate: 0.01,
  hostile: 10_000,
  kills: 50,
  brokerRestarts: 3,
  postgresRestarts: 3,
  rollingRestart: true,
  faultRate: 0.2,
  hostileWebhooks: 20,
  webhookVersion: 'v1',
  seed: 20261123,
  durationMs: 420_000,
  settleTimeoutMs: 240_000,
  leaseMs: 5_000,
  basePort: 20700,
  logLevel: 'info',
  outboxTransport: 'table',
  sabotage: '',
  attentionSettled: true,
  attentionBudget: 200,
  // Issue 29: the provider's real lifecycle and in-doubt faults that sometimes apply, in the full run.
  lifecycle: 'all',
  inDoubtApply: 0.3,
  fundsHold: true,
};

export const SHORT: Omit<ChaosConfig, 'commandLine' | 'reportFile'> = {
  ...FULL,
  variant: 'short',
  commands: 1_000,
  hostile: 1_000,
  kills: 5,
  brokerRestarts: 1,
  postgresRestarts: 1,
  rollingRestart: false,
  // The same commands, kills and restarts over 45 s instead of 60 s: npm test's time (issue: npm
  // test under 10 minutes); the sending stretches past it anyway while the broker restarts.
  durationMs: 45_000,
  settleTimeoutMs: 90_000,
  // Kept off in npm test's short run (its time); the full run has them.
  lifecycle: '',
  inDoubtApply: 0,
};

const KEYS: Record<string, keyof ChaosConfig> = {
  commands: 'commands',
  duplicates: 'duplicateRate',
  conflicts: 'conflictRate',
  hostile: 'hostile',
  kills: 'kills',
  'broker-restarts': 'brokerRestarts',
  'postgres-restarts': 'postgresRestarts',
  'rolling-restart': 'rollingRestart',
  'fault-rate': 'faultRate',
  'hostile-webhooks': 'hostileWebhooks',
  'webhook-version': 'webhookVersion',
  seed: 'seed',
  duration: 'durationMs',
  'settle-timeout': 'settleTimeoutMs',
  lease: 'leaseMs',
  'base-port': 'basePort',
  'log-level': 'logLevel',
  report: 'reportFile',
  'outbox-transport': 'outboxTransport',
  sabotage: 'sabotage',
  'attention-settled': 'attentionSettled',
  'attention-budget': 'attentionBudget',
  lifecycle: 'lifecycle',
  'in-doubt-apply': 'inDoubtApply',
  'funds-hold': 'fundsHold',
};

/**
 * `--short` (or CHAOS_VARIANT=short) starts from the short variant; every value can be set as
 * `--commands=2000` or `CHAOS_COMMANDS=2000` (durations in ms, rates as 0.2).
 */
export function chaosConfig(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  defaults: { reportFile: string } = { reportFile: 'docs/RELIABILITY.md' },
): ChaosConfig {
  const short = argv.includes('--short') || env['CHAOS_VARIANT'] === 'short';
  const cfg: Record<string, unknown> = {
    ...(short ? SHORT : FULL),
    reportFile: defaults.reportFile,
    commandLine: `npm run chaos${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
  };
  const given: Record<string, string> = {};
  for (const [flag, key] of Object.entries(KEYS)) {
    const e = env[`CHAOS_${flag.toUpperCase().replace(/-/g, '_')}`];
    if (e !== undefined && e !== '') given[key] = e;
  }
  for (const a of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(a);
    if (!m) continue;
    const key = KEYS[m[1] ?? ''];
    if (!key) throw new Error(`unknown chaos option --${m[1]}; known: ${Object.keys(KEYS).join(', ')}`);
    given[key] = m[2] ?? '';
  }
  for (const [key, raw] of Object.entries(given)) {
    const current = cfg[key];
    if (typeof current === 'number') {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0) throw new Error(`chaos option ${key}: not a number: ${raw}`);
      cfg[key] = n;
    } else if (typeof current === 'boolean') {
      cfg[key] = raw === 'true' || raw === '1';
    } else {
      cfg[key] = raw;
    }
  }
  const c = cfg as unknown as ChaosConfig;
  if (c.faultRate > 1 || c.duplicateRate > 1 || c.conflictRate > 1 || c.inDoubtApply > 1)
    throw new Error('rates are 0..1');
  if (c.webhookVersion !== 'v1' && c.webhookVersion !== 'v2') throw new Error('webhook-version is v1 or v2');
  if (c.outboxTransport !== 'table' && c.outboxTransport !== 'wal')
    throw new Error('outbox-transport is table or wal');
  return c;
}
