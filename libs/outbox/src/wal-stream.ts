import pg from 'pg';
import { PgoutputPlugin } from 'pg-logical-replication';
import { decodeWalMessage, lsnToBigInt, WAL_MESSAGE_PREFIX, type WalEvent } from './wal-message.js';

/** What a stream reports, in the order it was written to the WAL. */
export interface WalStreamHandlers {
  /** An outbox message of a committed transaction (the transaction's commit follows). */
  onEvent(e: WalEvent, commitTimeMs: number): void;
  /** A transaction ended here: once everything before is handled, the slot may confirm this far. */
  onCommit(endLsn: bigint): void;
  /** The server has sent everything before `lsn`; `replyNow`: it waits for a status update. */
  onKeepalive(lsn: bigint, replyNow: boolean): void;
  /** The stream ended (error, server shutdown, connection lost). Called once. */
  onEnd(err: Error | undefined): void;
}

/** The part of pg's connection the replication protocol needs (the client has no public API for it). */
interface CopyConnection {
  readonly stream: { pause(): void; resume(): void };
  on(event: 'copyData', listener: (msg: { chunk: Buffer }) => void): void;
  once(event: 'replicationStart', listener: () => void): void;
  sendCopyFromChunk(chunk: Buffer): void;
}

/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01). */
const PG_EPOCH_MS = 946_684_800_000;

/**
 * One logical replication connection (pgoutput, `messages` on) over pg: the package
 * pg-logical-replication parses the protocol; this class owns the connection, flow control and
 * the standby status updates, because the package's service confirms what it has RECEIVED (on a
 * timer and on every message), where the relay must confirm only what Kafka has acknowledged.
 */
export class WalStream {
  private client: pg.Client | undefined;
  private connection: CopyConnection | undefined;
  private readonly plugin: PgoutputPlugin;
  private ended = false;
  private paused = false;
  private commitTimeMs = 0;

  constructor(
    private readonly databaseUrl: string,
    private readonly slot: string,
    publication: string,
    private readonly handlers: WalStreamHandlers,
  ) {
    this.plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: [publication], messages: true });
  }

  /** Whether the stream has ended (what it delivered after its last confirmation comes again). */
  get isEnded(): boolean {
    return this.ended;
  }

  /**
   * Connects and starts streaming from the slot's confirmed position. Rejects when the server
   * refuses (55006: another process streams this slot; 42704: no such slot).
   */
  async start(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      replication: 'database',
    } as pg.ClientConfig);
    this.client = client;
    client.on('error', (e) => this.end(e));
    await client.connect();
    const connection = client.connection as unknown as CopyConnection;
    this.connection = connection;
    connection.on('copyData', ({ chunk }) => this.onCopyData(chunk));
    await new Promise<void>((resolve, reject) => {
      connection.once('replicationStart', () => resolve());
      // 0/0: the server starts at the slot's confirmed_flush_lsn.
      this.plugin.start(client, this.slot, '0/0').then(
        () => {
          reject(new Error('replication ended before it started'));
          this.end(undefined);
        },
        (e: unknown) => {
          const err = e instanceof Error ? e : new Error(String(e));
          reject(err);
          this.end(err);
        },
      );
    });
  }

  private onCopyData(chunk: Buffer): void {
    if (this.ended) return;
    try {
      if (chunk[0] === 0x77 /* w: XLogData */) {
        const msg = this.plugin.parse(chunk.subarray(25));
        switch (msg.tag) {
          case 'begin':
            this.commitTimeMs = Number(msg.commitTime) / 1000 + PG_EPOCH_MS;
            break;
          case 'message':
            if (msg.prefix === WAL_MESSAGE_PREFIX && msg.transactional)
              this.handlers.onEvent(
                decodeWalMessage(msg.content, msg.messageLsn ?? '0/0'),
                this.commitTimeMs,
              );
            break;
          case 'commit':
            this.handlers.onCommit(lsnToBigInt(msg.commitEndLsn ?? '0/0'));
            break;
          default:
            // Relations, types, origins: the publication lists no table, so no row change comes.
            break;
        }
      } else if (chunk[0] === 0x6b /* k: keepalive */) {
        this.handlers.onKeepalive(chunk.readBigUInt64BE(1), chunk.readUInt8(17) === 1);
      }
    } catch (e) {
      // An undecodable message cannot be skipped (the position would pass it): stop, and say so.
      this.end(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /**
   * Tells the server everything before `lsn` is handled: the slot's confirmed_flush_lsn moves
   * there and the WAL behind it may be recycled. A transaction whose commit record starts before
   * it is never sent again, so pass a commit's END (or a keepalive's position), never more.
   */
  acknowledge(lsn: bigint): void {
    if (this.ended || !this.connection) return;
    const b = Buffer.alloc(34);
    b.write('r', 0, 'latin1');
    b.writeBigUInt64BE(lsn, 1); // written
    b.writeBigUInt64BE(lsn, 9); // flushed
    b.writeBigUInt64BE(lsn, 17); // applied
    b.writeBigUInt64BE(BigInt(Date.now() - PG_EPOCH_MS) * 1000n, 25);
    b.writeUInt8(0, 33);
    this.connection.sendCopyFromChunk(b);
  }

  /** Stops reading (backpressure): the server's sends wait in the socket and then in the server. */
  pause(): void {
    if (this.paused || !this.connection) return;
    this.paused = true;
    this.connection.stream.pause();
  }

  resume(): void {
    if (!this.paused || !this.connection) return;
    this.paused = false;
    this.connection.stream.resume();
  }

  private end(err: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.handlers.onEnd(err);
  }

  async stop(): Promise<void> {
    this.end(undefined);
    const client = this.client;
    this.client = undefined;
    this.connection = undefined;
    this.paused = false;
    await client?.end().catch(() => undefined);
  }
}
