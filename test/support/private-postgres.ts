import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** util-linux's runuser lives in sbin, which a minimal PATH (`env -i`, some CI runners) leaves out. */
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p)) ?? 'runuser';

const run = promisify(execFile);

/** The newest PostgreSQL server binaries on this machine (/usr/lib/postgresql/<version>/bin). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const v = versions[0];
  if (v === undefined) throw new Error(`no PostgreSQL server binaries under ${root}/*/bin`);
  return join(root, v, 'bin');
}

/**
 * A PostgreSQL cluster of a test run's own (the chaos suite's, the WAL outbox's) (initdb + pg_ctl on a private port), so the run can
 * stop and restart it. initdb refuses root: as root, the cluster belongs to the `postgres` user.
 */
export class PrivatePostgres {
  private base = '';
  private dir = '';
  private readonly bin = postgresBin();
  private readonly asRoot = userInfo().uid === 0;

  constructor(
    readonly port: number,
    private readonly logFile: string,
    /** More server settings (`-c name=value`), e.g. `wal_level=logical` for the WAL outbox's tests. */
    private readonly settings: readonly string[] = [],
  ) {}

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private async pg(tool: string, args: string[], timeoutMs = 120_000): Promise<string> {
    const cmd = join(this.bin, tool);
    const { stdout } = this.asRoot
      ? await run(RUNUSER, ['-u', 'postgres', '--', cmd, ...args], { timeout: timeoutMs, cwd: '/' })
      : await run(cmd, args, { timeout: timeoutMs });
    return stdout;
  }

  /**
   * The cluster and the server's own log live in a temporary directory the server's user owns:
   * as root the server runs as `postgres`, which may not enter the checkout (a home directory or
   * a `mktemp -d` directory is 0700). The log is copied to `logFile` when the cluster is destroyed.
   */
  async init(): Promise<void> {
    this.base = await mkdtemp(join(tmpdir(), `chaos-pg-${this.port}-`));
    this.dir = join(this.base, 'data');
    await mkdir(this.dir, { mode: 0o700 });
    if (this.asRoot) {
      const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
      await chown(this.base, uid, 0);
      await chown(this.dir, uid, 0);
    }
    await this.pg('initdb', ['-D', this.dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await this.start();
  }

  private get serverLog(): string {
    return join(this.base, 'server.log');
  }

  async start(): Promise<void> {
    const opts = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.dir}`,
      '-c max_connections=200',
      // A restart here is a crash of the server process, not of the machine: the OS keeps what was
      // written, so fsync can be off. synchronous_commit must stay on: off, a crash loses commits
      // whose events may already be published, which is not a fault of the service.
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c shared_buffers=128MB',
      ...this.settings.map((s) => `-c ${s}`),
    ].join(' ');
    await this.pg('pg_ctl', ['-D', this.dir, '-l', this.serverLog, '-o', opts, '-w', '-t', '60', 'start']);
  }

  /** `immediate` is a crash (no checkpoint; recovery at the next start). */
  async stop(mode: 'fast' | 'immediate' = 'immediate'): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.dir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  async destroy(): Promise<void> {
    if (!this.base) return;
    await this.stop('immediate').catch(() => undefined);
    await copyFile(this.serverLog, this.logFile).catch(() => undefined);
    await rm(this.base, { recursive: true, force: true });
    this.base = '';
  }
}
