import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = resolve(import.meta.dirname, '../../../tools/kafka/kafka.sh');

/** A private single-node broker, for tests that stop and start Kafka itself. */
export class PrivateBroker {
  private dataDir = '';

  constructor(readonly port: number) {}

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  private env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      KAFKA_PORT: String(this.port),
      KAFKA_DATA_DIR: this.dataDir,
      KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
    };
  }

  async start(): Promise<void> {
    if (!this.dataDir) this.dataDir = await mkdtemp(join(tmpdir(), `kafka-${this.port}-`));
    await run('bash', [SCRIPT, 'start'], { env: this.env(), timeout: 120_000 });
  }

  async stop(): Promise<void> {
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

  async destroy(): Promise<void> {
    await this.resume().catch(() => undefined);
    await this.stop().catch(() => undefined);
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
  }
}
