import pg from 'pg';
import { type AppLogger } from '#observability';

export interface OutboxListenerOptions {
  readonly databaseUrl: string;
  readonly logger: AppLogger;
  /** Called on every notification, and after each (re)connect, since notifications may have been missed. */
  readonly onWake: () => void;
  readonly channel?: string;
  readonly reconnectMinMs?: number;
  readonly reconnectMaxMs?: number;
}

/**
 * Holds one dedicated connection in LISTEN (a pooled connection would be returned and lose it).
 * When the connection drops it reconnects with backoff; meanwhile the relay's polling covers.
 */
export class OutboxListener {
  private client: pg.Client | undefined;
  private stopped = true;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly log: AppLogger;
  private readonly channel: string;

  constructor(private readonly options: OutboxListenerOptions) {
    this.log = options.logger.child({ component: 'outbox-listener' });
    this.channel = options.channel ?? 'outbox';
    if (!/^[a-z_][a-z0-9_]*$/.test(this.channel)) throw new Error(`bad channel name ${this.channel}`);
  }

  /** Resolves once listening, or after the first failure (retries then go on in the background). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: `payouts-listen-${this.channel}`,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    let dropped = false;
    const drop = (why: unknown) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.log.warn(
        { err: why instanceof Error ? why.message : String(why) },
        'LISTEN connection lost; reconnecting',
      );
      this.scheduleReconnect();
    };
    client.on('error', drop);
    client.on('end', () => drop(new Error('connection ended')));
    client.on('notification', () => this.options.onWake());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (e) {
      drop(e);
      return;
    }
    if (this.stopped) {
      dropped = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.failures = 0;
    this.options.onWake();
  }

  private scheduleReconnect(): void {
    const min = this.options.reconnectMinMs ?? 200;
    const max = this.options.reconnectMaxMs ?? 10_000;
    const delay = Math.min(max, min * 2 ** Math.min(this.failures, 16));
    this.failures++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('notification');
      await client.end().catch(() => undefined);
    }
  }
}
