/**
 * Counting probe for `BENCH_PROFILE=1 npm run bench`, preloaded into the service with
 * `node --import dist/bench/probe.js`. It changes nothing the service does; it only counts, in the
 * service's own process:
 *   - Postgres statements by text (every `pg` Client#query, so the pool, typeorm and the outbox
 *     listener alike; BEGIN/COMMIT/ROLLBACK included);
 *   - Kafka requests by client kind and API (kafkajs' REQUEST instrumentation events);
 *   - HTTP requests by method and path, query string dropped (undici's diagnostics channel);
 *   - bytes written to sockets, by peer (net.Socket#write: Postgres on 5432, Kafka on 9092, others).
 * On SIGUSR2 it writes a mark, `{ seq, hrtimeUs, counts }`, to `$BENCH_PROBE_DIR/mark-<seq>.json`,
 * and at exit to `exit.json`.
 * `hrtimeUs` is on the monotonic clock V8 stamps its CPU profile samples with, so the bench can cut
 * the profile to the window between two marks. Never loaded outside the bench.
 */
import { channel } from 'node:diagnostics_channel';
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface ProbeCounts {
  readonly sql: Record<string, number>;
  readonly kafka: Record<string, number>;
  readonly http: Record<string, number>;
  /** 'explicit transactions', 'statements in transactions', 'single-statement transactions'. */
  readonly transactions: Record<string, number>;
  /** Bytes the service wrote to sockets, by peer: 'postgres', 'kafka', 'other :<port>'. */
  readonly bytesWritten: Record<string, number>;
}

export interface ProbeMark {
  readonly seq: number;
  readonly hrtimeUs: number;
  readonly counts: ProbeCounts;
}

const counts: ProbeCounts = { sql: {}, kafka: {}, http: {}, transactions: {}, bytesWritten: {} };
const bump = (table: Record<string, number>, key: string): void => {
  table[key] = (table[key] ?? 0) + 1;
};

/** A statement's text as one short line: whitespace collapsed, numbered parameters kept. */
export function statementKey(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 160 ? `${t.slice(0, 157)}...` : t;
}

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;
const require = createRequire(import.meta.url);

function patchPg(): void {
  const pg = require('pg') as { Client: { prototype: { query: AnyFn } } };
  const original = pg.Client.prototype.query;
  // Connections inside BEGIN..COMMIT, to tell explicit transactions from single statements.
  const inTransaction = new WeakSet<object>();
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]): unknown {
    const first = args[0];
    let text = '(submittable)';
    if (typeof first === 'string') text = first;
    else if (typeof first === 'object' && first !== null && 'text' in first) text = String(first.text);
    const key = statementKey(text);
    bump(counts.sql, key);
    if (typeof this === 'object' && this !== null) {
      if (/^(BEGIN|START TRANSACTION)\b/i.test(key)) {
        inTransaction.add(this);
        bump(counts.transactions, 'explicit transactions');
      } else if (/^(COMMIT|ROLLBACK|END)\b/i.test(key)) inTransaction.delete(this);
      else if (inTransaction.has(this)) bump(counts.transactions, 'statements in transactions');
      else bump(counts.transactions, 'single-statement transactions');
    }
    return original.apply(this, args);
  };
}

interface Instrumented {
  readonly events: { readonly REQUEST: string };
  on(event: string, listener: (e: { payload: { apiName: string } }) => void): unknown;
}

function patchKafka(): void {
  const Kafka = require('kafkajs') as { Kafka: { prototype: Record<string, AnyFn> } };
  const proto = Kafka.Kafka.prototype;
  for (const kind of ['producer', 'consumer', 'admin']) {
    const original = proto[kind];
    if (!original) continue;
    proto[kind] = function (this: unknown, ...args: unknown[]): unknown {
      const client = original.apply(this, args) as Instrumented;
      client.on(client.events.REQUEST, (e) => bump(counts.kafka, `${kind} ${e.payload.apiName}`));
      return client;
    };
  }
}

function patchSockets(): void {
  const net = require('node:net') as { Socket: { prototype: { write: AnyFn; remotePort?: number } } };
  const original = net.Socket.prototype.write;
  net.Socket.prototype.write = function (this: unknown, ...args: unknown[]): unknown {
    const chunk = args[0];
    const size =
      typeof chunk === 'string'
        ? Buffer.byteLength(chunk)
        : chunk instanceof Uint8Array
          ? chunk.byteLength
          : 0;
    const port = (this as { remotePort?: number }).remotePort;
    const peer = port === 5432 ? 'postgres' : port === 9092 ? 'kafka' : `other :${port ?? '?'}`;
    counts.bytesWritten[peer] = (counts.bytesWritten[peer] ?? 0) + size;
    return original.apply(this, args);
  };
}

function watchHttp(): void {
  channel('undici:request:create').subscribe((message) => {
    const { request } = message as { request: { method: string; path: string } };
    bump(counts.http, `${request.method} ${request.path.split('?')[0] ?? ''}`);
  });
}

const dir = process.env['BENCH_PROBE_DIR'];
if (dir) {
  patchPg();
  patchKafka();
  patchSockets();
  watchHttp();
  let seq = 0;
  const write = (name: string): void => {
    const mark: ProbeMark = {
      seq: seq++,
      hrtimeUs: Number(process.hrtime.bigint() / 1000n),
      counts: structuredClone(counts),
    };
    const file = join(dir, `${name}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(mark));
    renameSync(`${file}.tmp`, file);
  };
  process.on('SIGUSR2', () => write(`mark-${seq}`));
  // At exit too, so the bench can compare the server's statistics (complete only once the
  // service's connections have closed) with what the service sent over the same span.
  process.on('exit', () => write('exit'));
}
