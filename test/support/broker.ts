import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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

  async destroy(): Promise<void> {
    await this.stop().catch(() => undefined);
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
  }
}
