import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = resolve(import.meta.dirname, '../../../tools/kafka/kafka.sh');

/** Binds 127.0.0.1:port and releases it: the port's number when it was free, else undefined. */
function tryPort(port: number): Promise<number | undefined> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(undefined));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => done(bound));
    });
  });
}

/** The kernel's range of local ports for outgoing connections (Linux); undefined where unknown. */
function ephemeralRange(): readonly [number, number] | undefined {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return lo && hi ? [lo, hi] : undefined;
  } catch {
    return undefined;
  }
}

/** Below it, from here: above the fixed ports of .ci/run and the chaos run (20700-20799). */
const QUIET_FROM = 21_000;

/**
 * `count` consecutive ports free on 127.0.0.1 now, below the kernel's ephemeral range. A port the
 * kernel hands out (port 0) is one it may also give an outgoing connection's local end while the
 * test's server is down: a broker or Postgres a test stops and starts again on it could find it
 * taken (a CI run: "broker exited during start"). Picked at random, so parallel files rarely meet;
 * each is checked free. Where the range is unknown, the kernel's pick.
 */
async function quietPorts(count: 1 | 2): Promise<number> {
  const range = ephemeralRange();
  for (let i = 0; i < 100; i++) {
    const port =
      range && range[0] - 2 > QUIET_FROM
        ? QUIET_FROM + Math.floor(Math.random() * (range[0] - 2 - QUIET_FROM))
        : await tryPort(0);
    if (port === undefined || port >= 65_535) continue;
    if ((await tryPort(port)) === undefined) continue;
    if (count === 2 && (await tryPort(port + 1)) === undefined) continue;
    return port;
  }
  throw new Error(`no ${count === 2 ? 'two consecutive free ports' : 'free port'} on 127.0.0.1`);
}

/** A port free on 127.0.0.1 now, outside the kernel's ephemeral range (quietPorts), for a test's own listener. */
export async function freePort(): Promise<number> {
  return quietPorts(1);
}

/** Two consecutive free ports (client, controller), so runs and files never pick the same ones. */
async function freePortPair(): Promise<number> {
  return quietPorts(2);
}

/**
 * A private single-node broker, for tests that stop and start Kafka itself. Without a port it
 * takes two free ones at its first start and keeps them across restarts.
 */
export class PrivateBroker {
  private dataDir = '';
  private chosen: number | undefined;

  constructor(port?: number) {
    this.chosen = port;
  }

  get port(): number {
    if (this.chosen === undefined) throw new Error('PrivateBroker: start() it before asking its port');
    return this.chosen;
  }

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  private env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      KAFKA_PORT: String(this.port),
      KAFKA_DATA_DIR: this.dataDir,
      KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
      // The JIT's first tier only: a broker that lives for one test starts on about 40 % less CPU
      // (1.8 s against 3.1 s measured here), and the tests send it little.
      KAFKA_JVM_OPTS: '-XX:TieredStopAtLevel=1',
    };
  }

  async start(): Promise<void> {
    this.chosen ??= await freePortPair();
    if (!this.dataDir) this.dataDir = await mkdtemp(join(tmpdir(), `kafka-${this.port}-`));
    await run('bash', [SCRIPT, 'start'], { env: this.env(), timeout: 120_000 });
  }

  async stop(): Promise<void> {
    if (this.chosen === undefined) return;
    await run('bash', [SCRIPT, 'stop'], { env: this.env(), timeout: 60_000 });
  }

  /**
   * Freezes the broker process (SIGSTOP): connections stay open but nothing is answered, so
   * requests time out, as with a hung or partitioned broker. `resume()` thaws it.
   */
  async pause(): Promise<void> {
    process.kill(await this.pid(), 'SIGSTOP');
  }

  async resume(): Promise<void> {
    process.kill(await this.pid(), 'SIGCONT');
  }

  private async pid(): Promise<number> {
    return Number((await readFile(join(this.dataDir, 'broker.pid'), 'utf8')).trim());
  }

  /** Kills the broker and deletes its data: no clean shutdown (seconds) for a broker thrown away. */
  async destroy(): Promise<void> {
    if (this.dataDir)
      try {
        const pid = await this.pid();
        // Only this broker's JVM (its command line names the data directory), not a reused pid.
        if ((await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes(this.dataDir))
          process.kill(pid, 'SIGKILL');
      } catch {
        // not running
      }
    await this.stop().catch(() => undefined);
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
  }
}
