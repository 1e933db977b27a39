/**
 * CPU time per process group over a measured window, from /proc (utime + stime of every process),
 * so each phase can say what one payout cost each process: on a shared 2-core box a rate moves with
 * the other jobs, the CPU spent per payout much less (issue 23).
 *
 * Groups: the service processes, Postgres (the backends of the phase's own databases and the
 * server's own processes: postmaster, WAL writer, checkpointer, autovacuum), Kafka (the broker's JVM), the sandbox, the load generator (this bench process)
 * and "other" (everything else on the box: another job's noise, not part of the pipeline). Backends
 * of other databases go to "other": Postgres names each backend's database in its process title.
 * Not counted: a backend that exits inside the window (its time since the first snapshot is gone
 * with it; the postmaster's children's time would bring it back, but mixed with every other
 * database's short connections). The service's pool keeps its connections through a phase.
 * The broker and Postgres's background processes are shared: on a busy box they carry other jobs'
 * work too, so quote figures from a quiet run (the "other" column says how quiet it was).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import pg from 'pg';

const TICK_MS = 10; // Linux USER_HZ is 100: /proc counts CPU time in 1/100 s.

export const CPU_GROUPS = ['service', 'postgres', 'kafka', 'sandbox', 'load generator'] as const;
export type CpuGroup = (typeof CPU_GROUPS)[number] | 'other';

export interface CpuWho {
  /** The service processes of the phase (none for the baseline and the raw pipeline). */
  readonly services?: readonly (number | undefined)[];
  readonly sandbox?: number | undefined;
  /** Databases whose backends count as the pipeline's Postgres (names, without the URL). */
  readonly databases?: readonly string[];
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // exited meanwhile
  }
}

/** One process as a snapshot saw it. */
interface Proc {
  readonly pid: number;
  readonly ppid: number;
  /** utime + stime, ticks. */
  readonly ticks: number;
  /** The group, or 'pg' for a Postgres process (placed once the phase's servers are known). */
  readonly kind: CpuGroup | 'pg';
  /** For a Postgres client backend ("postgres: [cluster: ]<user> <database> <client> <state>"). */
  readonly database: string | undefined;
}

/** The database a backend's process title names; undefined for the server's own processes. */
function backendDatabase(cmdline: string): string | undefined {
  const title = cmdline.replace(/\0/g, ' ').trim().split(/\s+/);
  // A walsender ("walsender <user> <client> ...") streams the server's WAL, not one database's:
  // the server's own (the WAL outbox's relay reads through one).
  if (title.includes('walsender')) return undefined;
  const client = title.findIndex((t) => /\(\d+\)$/.test(t) || t === '[local]');
  return client >= 2 ? title[client - 1] : undefined;
}

/** Every process, keyed by pid and start time (a pid reused in the window is another process). */
type Snapshot = Map<string, Proc>;

function snapshot(who: CpuWho): Snapshot {
  const services = new Set((who.services ?? []).filter((p): p is number => p !== undefined));
  const out: Snapshot = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = read(`/proc/${entry}/stat`);
    if (stat === undefined) continue;
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    // Fields after the name: state(0) ppid(1) ... utime(11) stime(12) ... starttime(19).
    const f = stat.slice(close + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    if (!Number.isFinite(ticks)) continue;
    let kind: Proc['kind'];
    let database: string | undefined;
    if (services.has(pid)) kind = 'service';
    else if (pid === who.sandbox) kind = 'sandbox';
    else if (pid === process.pid) kind = 'load generator';
    else if (comm === 'postgres') {
      kind = 'pg';
      database = backendDatabase(read(`/proc/${entry}/cmdline`) ?? '');
    } else if (comm === 'java' && (read(`/proc/${entry}/cmdline`) ?? '').includes('kafka.Kafka'))
      kind = 'kafka';
    else kind = 'other';
    out.set(`${pid}:${f[19]}`, { pid, ppid: Number(f[1]), ticks, kind, database });
  }
  return out;
}

/** The servers (postmasters) of the phase's databases: the parents of their backends. */
function serversOf(s: Snapshot, dbs: ReadonlySet<string>): number[] {
  return [...s.values()].filter((p) => p.database !== undefined && dbs.has(p.database)).map((p) => p.ppid);
}

/**
 * A process's group. Postgres: the phase's backends and the processes of the server that runs
 * them; other clusters' processes and other databases' backends are "other".
 */
function groupOf(p: Proc, dbs: ReadonlySet<string>, servers: ReadonlySet<number>): CpuGroup {
  if (p.kind !== 'pg') return p.kind;
  const ours = p.database !== undefined ? dbs.has(p.database) : servers.has(p.pid) || servers.has(p.ppid);
  return ours ? 'postgres' : 'other';
}

/** Milliseconds of CPU per unit (payout, command, message) for each group, and their sum. */
export interface CpuPerUnit {
  readonly byGroup: Readonly<Record<CpuGroup, number>>;
  /** The pipeline's processes (every group but "other"). */
  readonly pipeline: number;
  /** The window's length, ms, and the box's busy share over it (2 cores = 200 %). */
  readonly windowMs: number;
  readonly busyPercent: number;
}

/** Starts at construction; `perUnit(n)` reads the window so far. Processes must still be running. */
export class CpuMeter {
  private readonly start: Snapshot;
  private readonly dbs: ReadonlySet<string>;
  private readonly t0 = performance.now();

  constructor(private readonly who: CpuWho) {
    this.start = snapshot(who);
    this.dbs = new Set(who.databases ?? []);
  }

  perUnit(units: number): CpuPerUnit {
    const last = snapshot(this.who);
    const windowMs = performance.now() - this.t0;
    // The same servers on both sides, whichever snapshot saw a backend of the phase.
    const servers = new Set([...serversOf(this.start, this.dbs), ...serversOf(last, this.dbs)]);
    const ms: Record<CpuGroup, number> = {
      service: 0,
      postgres: 0,
      kafka: 0,
      sandbox: 0,
      'load generator': 0,
      other: 0,
    };
    // Per process: its time since the first snapshot, or all of it if it started in the window.
    // A process that exited in the window is not counted (its time is gone with it).
    for (const [key, p] of last)
      ms[groupOf(p, this.dbs, servers)] += (p.ticks - (this.start.get(key)?.ticks ?? 0)) * TICK_MS;
    const byGroup = {} as Record<CpuGroup, number>;
    let pipeline = 0;
    let all = 0;
    for (const g of [...CPU_GROUPS, 'other'] as const) {
      byGroup[g] = units > 0 ? ms[g] / units : NaN;
      all += ms[g];
      if (g !== 'other') pipeline += ms[g];
    }
    return {
      byGroup,
      pipeline: units > 0 ? pipeline / units : NaN,
      windowMs,
      busyPercent: windowMs > 0 ? (all / windowMs) * 100 : NaN,
    };
  }
}

/** One line for the bench's log. */
export function describeCpu(c: CpuPerUnit, unit: string): string {
  const parts = [...CPU_GROUPS, 'other' as const]
    .filter((g) => c.byGroup[g] > 0)
    .map((g) => `${g} ${c.byGroup[g].toFixed(3)}`);
  return `CPU per ${unit}, ms: ${parts.join(', ')}; pipeline ${c.pipeline.toFixed(3)} (box ${Math.round(c.busyPercent)} % busy of 200 %)`;
}

/**
 * What a phase wrote, per unit, for the capacity model (docs/SCALING.md): WAL bytes (the whole
 * cluster's, so quote a quiet run), what the ledger's tables and indexes grew by (the outbox's
 * deleted rows still take room until vacuum), and the Kafka log bytes of the phase's topics (the broker's log files: commands and events).
 */
export interface Footprint {
  readonly walBytes: number;
  readonly ledgerBytes: number;
  readonly kafkaBytes: number | undefined;
}

/** The database's tables with their indexes and TOAST, in bytes (as text). */
const LEDGER_SIZE = `(SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname = 'public')::text`;

export class FootprintMeter {
  private constructor(
    private readonly client: pg.Client,
    private readonly walStart: string,
    private readonly ledgerStart: number,
  ) {}

  static async start(dbUrl: string): Promise<FootprintMeter> {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    const { rows } = await client.query<{ lsn: string; ledger: string }>(
      `SELECT pg_current_wal_lsn()::text AS lsn, ${LEDGER_SIZE} AS ledger`,
    );
    return new FootprintMeter(client, rows[0]?.lsn ?? '0/0', Number(rows[0]?.ledger ?? NaN));
  }

  /** `topicPrefix`: the phase's topics (their partitions' log files under `kafkaLogDir`). */
  async finish(units: number, kafkaLogDir: string, topicPrefix: string): Promise<Footprint> {
    try {
      const { rows } = await this.client.query<{ wal: string; ledger: string }>(
        `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS wal,
                ${LEDGER_SIZE} AS ledger`,
        [this.walStart],
      );
      return {
        walBytes: Number(rows[0]?.wal ?? NaN) / units,
        ledgerBytes: (Number(rows[0]?.ledger ?? NaN) - this.ledgerStart) / units,
        kafkaBytes: kafkaLogBytes(kafkaLogDir, topicPrefix) / units,
      };
    } finally {
      await this.client.end();
    }
  }
}

/** Bytes of the log segments of every partition of the topics starting with `prefix` (NaN if unreadable). */
function kafkaLogBytes(dir: string, prefix: string): number {
  let total = 0;
  let found = false;
  try {
    for (const part of readdirSync(dir)) {
      if (!part.startsWith(prefix)) continue;
      for (const f of readdirSync(`${dir}/${part}`)) {
        if (!f.endsWith('.log')) continue;
        total += statSync(`${dir}/${part}/${f}`).size;
        found = true;
      }
    }
  } catch {
    return NaN;
  }
  return found ? total : NaN;
}
