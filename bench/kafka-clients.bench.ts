/**
 * kafkajs against @platformatic/kafka, in the shapes the service uses (docs/adr/0010-kafka-client.md):
 *
 * - produce: the relay's events (~530 B CloudEvents JSON as libs/ledger writes them, key
 *   `payout/<account>/<id>`, three headers; BENCH_KC_SHAPE below), 300 per send (the relay's
 *   batch), acks=all, idempotent, Java-compatible murmur2 partitioning (kafkajs with the service's
 *   PRODUCER_SETTINGS), one send at a time (the relay awaits each);
 * - consume: a consumer group reads a topic in per-partition batches, builds the service's
 *   InboundMessage (key, value, offset as a string) for each message and commits each batch's last
 *   offset + 1 after "handling" it (KafkaBatchTransport's eachBatch + commitOffsets), 6 partitions
 *   at once, session 6 s / heartbeat 1 s;
 * - CPU ms per 1,000 messages (process.cpuUsage, all threads of the process) over the measured
 *   window: what a CPU-saturated box pays, which matters more here than wall throughput.
 *
 * Each measurement runs in its own child process (fresh JIT and heap), clients alternate their
 * order from round to round, and the figures are the median of BENCH_KC_RUNS rounds (3) with the
 * spread. The consume rounds of both clients read the same topic (written by kafkajs in that round).
 * Also: per-call costs of the two clients' murmur2 and crc32c, and a partition check (the keys of
 * the topic the other client produced must sit where kafkajs's DefaultPartitioner puts them).
 *
 * @platformatic/kafka is not a dependency of the project. It is loaded only if it resolves: from the
 * project, from a directory named by BENCH_PLATFORMATIC_FROM (where `npm install @platformatic/kafka`
 * was run), or from a NODE_PATH entry. Otherwise the bench says so and measures kafkajs alone.
 *
 *   node dist/bench/kafka-clients.bench.js
 *   BENCH_PLATFORMATIC_FROM=/work/kc-deps BENCH_KC_N=30000 BENCH_KC_RUNS=3 node dist/bench/kafka-clients.bench.js
 *   BENCH_KC_SHAPE=event-1k ...  # events padded to ~1.1 KB; =command: the ~180 B commands consumed
 *   BENCH_KC_KAFKAJS_PARTITIONER=default ...  # kafkajs with its own DefaultPartitioner
 *
 * Topics are named `kc-<run>-...` and deleted at the end.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Kafka, logLevel, Partitioners, type Message as KafkajsMessage } from 'kafkajs';
import { murmur2 as serviceMurmur2, PRODUCER_SETTINGS } from '#messaging';

const BROKERS = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
const N = Number(process.env['BENCH_KC_N'] ?? 30_000);
const BATCH = Number(process.env['BENCH_KC_BATCH'] ?? 300);
const RUNS = Number(process.env['BENCH_KC_RUNS'] ?? 3);
const WARMUP_SENDS = Number(process.env['BENCH_KC_WARMUP_SENDS'] ?? 10);
/**
 * `event`: the relay's events as the ledger writes them (~530 B CloudEvents JSON, 3 headers);
 * `event-1k`: the same with ~560 B more free text (~1.1 KB); `command`: the ~180 B commands the
 * service consumes, no headers.
 */
type Shape = 'event' | 'event-1k' | 'command';
const SHAPE: Shape =
  (['event', 'event-1k', 'command'] as const).find((s) => s === process.env['BENCH_KC_SHAPE']) ?? 'event';
const PARTITIONS = 6;
const SESSION_TIMEOUT_MS = 6_000;
const HEARTBEAT_INTERVAL_MS = 1_000;
const SEND_TIMEOUT_MS = 30_000;
const THIS_FILE = fileURLToPath(import.meta.url);
const require = createRequire(import.meta.url);

type ClientName = 'kafkajs' | 'platformatic';

// ---- the parts of @platformatic/kafka this bench uses (it is not installed in the project) ----

interface PltMessage {
  readonly key: Buffer | undefined;
  readonly value: Buffer | undefined;
  readonly headers: Map<Buffer, Buffer>;
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  commit(): Promise<void>;
}
interface PltStream {
  on(event: 'data', listener: (m: PltMessage) => void): void;
  on(event: 'error', listener: (e: Error) => void): void;
  close(): Promise<void>;
}
interface PltConsumer {
  on(event: 'consumer:group:join', listener: () => void): void;
  consume(options: Record<string, unknown>): Promise<PltStream>;
  close(force?: boolean): Promise<void>;
}
interface PltProducer {
  send(options: { messages: PltOutgoing[] }): Promise<unknown>;
  close(force?: boolean): Promise<void>;
}
interface PltOutgoing {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}
type Partitioner = (message: unknown, key: Buffer | undefined) => number;
interface PltModule {
  readonly Producer: new (options: Record<string, unknown>) => PltProducer;
  readonly Consumer: new (options: Record<string, unknown>) => PltConsumer;
  readonly stringSerializers: unknown;
  readonly compatibilityPartitioner: Partitioner;
  readonly defaultPartitioner: Partitioner;
  readonly murmur2: (data: Buffer) => number;
  readonly crc32c: (data: Buffer) => number;
  readonly loadNativeCRC32C: () => unknown;
}

/** Where @platformatic/kafka resolves from, or null. */
function findPlatformatic(): string | null {
  const from = [process.env['BENCH_PLATFORMATIC_FROM'], resolve(THIS_FILE, '../../..')];
  for (const dir of from) {
    if (!dir) continue;
    try {
      return createRequire(join(dir, 'noop.js')).resolve('@platformatic/kafka');
    } catch {
      // not there
    }
  }
  for (const dir of (process.env['NODE_PATH'] ?? '').split(':')) {
    const entry = dir && join(dir, '@platformatic/kafka/dist/index.js');
    if (entry && existsSync(entry)) return entry;
  }
  return null;
}

async function loadPlatformatic(): Promise<PltModule | null> {
  const entry = findPlatformatic();
  if (!entry) return null;
  return (await import(pathToFileURL(entry).href)) as PltModule;
}

function platformaticVersion(): string {
  const entry = findPlatformatic();
  if (!entry) return 'n/a';
  return (require(join(dirname(entry), '..', 'package.json')) as { version: string }).version;
}

// ---- the service's message shapes ----

const EVENT_TYPES = ['payouts.payout.accepted', 'payouts.payout.submitting', 'payouts.payout.succeeded'];

/** An event as the relay sends it: key, CloudEvents JSON value (libs/ledger/src/events.ts), ce_* headers. */
function event(
  i: number,
  run: string,
  padded = false,
): { key: string; value: string; headers: Record<string, string> } {
  const account = `acc_${i % 7}`;
  const transferId = `kc_${run}_${Math.floor(i / 3)}`;
  const key = `payout/${account}/${transferId}`;
  const version = (i % 3) + 1;
  const type = EVENT_TYPES[i % 3] ?? 'payouts.payout.accepted';
  const id = `${key}:${version}`;
  const at = new Date(1_763_900_000_000 + i).toISOString();
  const value = JSON.stringify({
    specversion: '1.0',
    id,
    type,
    source: 'urn:payouts:payout-service',
    time: at,
    subject: transferId,
    datacontenttype: 'application/json',
    data: {
      accountId: account,
      id: transferId,
      kind: 'direct_transfer',
      status: type.split('.').pop()?.toUpperCase(),
      version,
      amount: '101.00',
      statusCode: version === 3 ? 'SUCCESS' : undefined,
      referenceId: version === 3 ? (100_000_000 + i).toString() : undefined,
      svcTransferId: version === 3 ? `svc_${transferId}` : undefined,
      utr: version === 3 ? `13874201704300${(10_000_000_000 + i).toString()}` : undefined,
      beneficiary: { bankAccount: 'XXXXXXXXXXX1191', ifsc: 'YESB0000262' },
      requestId: `req-${run}-${i}`,
      occurredAt: at,
      ...(padded ? { remarks: `settlement ${i} of run ${run}: ${'x'.repeat(520)}` } : {}),
    },
  });
  return {
    key,
    value,
    headers: { ce_id: id, ce_type: type, 'content-type': 'application/cloudevents+json' },
  };
}

// ---- child: one measurement ----

interface ChildArgs {
  readonly phase: 'produce' | 'consume';
  readonly client: ClientName;
  readonly topic: string;
  readonly run: string;
  readonly n: number;
  readonly group?: string;
}

interface Measured {
  readonly messages: number;
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Opens a window: CPU from now; wall from now, or from `startWall()` if it is called later. */
function window(): { (): { wallMs: number; cpuMs: number }; startWall(): void } {
  let t0 = process.hrtime.bigint();
  let wallStarted = false;
  const c0 = process.cpuUsage();
  const close = (): { wallMs: number; cpuMs: number } => {
    const c = process.cpuUsage(c0);
    return { wallMs: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: (c.user + c.system) / 1000 };
  };
  return Object.assign(close, {
    startWall: () => {
      if (wallStarted) return;
      wallStarted = true;
      t0 = process.hrtime.bigint();
    },
  });
}

/** A payout command as the pipeline bench sends it (the service consumes one per payout). */
function command(i: number, run: string): { key: string; value: string; headers: Record<string, string> } {
  const transferId = `kc_${run}_${i}`;
  const value = JSON.stringify({
    type: 'payout.direct_transfer',
    data: {
      transferId,
      amount: '101.00',
      beneDetails: { name: 'Bench Person', bankAccount: '026291800001191', ifsc: 'YESB0000262' },
    },
  });
  return { key: transferId, value, headers: {} };
}

/** The messages a produce run sends, built before its window opens (only the client's work is timed). */
function eventsFor(a: ChildArgs): Array<ReturnType<typeof event>> {
  const make = (i: number): ReturnType<typeof event> =>
    SHAPE === 'command' ? command(i, a.run) : event(i, a.run, SHAPE === 'event-1k');
  return Array.from({ length: a.n + WARMUP_SENDS * BATCH }, (_, i) => make(i));
}

async function produceKafkajs(a: ChildArgs): Promise<Measured> {
  const kafka = new Kafka({ clientId: 'kc-bench', brokers: BROKERS, logLevel: logLevel.NOTHING });
  // The service's producer: libs/messaging's settings (BENCH_KC_KAFKAJS_PARTITIONER=default: with
  // kafkajs's own DefaultPartitioner, as before JavaPartitioner; both place keys alike).
  const producer = kafka.producer({
    ...PRODUCER_SETTINGS,
    ...(process.env['BENCH_KC_KAFKAJS_PARTITIONER'] === 'default'
      ? { createPartitioner: Partitioners.DefaultPartitioner }
      : {}),
  });
  await producer.connect();
  const events = eventsFor(a);
  const send = async (from: number, count: number): Promise<void> => {
    const messages: KafkajsMessage[] = [];
    for (let i = from; i < from + count; i++) messages.push({ ...events[i]! });
    await producer.sendBatch({
      acks: -1,
      timeout: SEND_TIMEOUT_MS,
      topicMessages: [{ topic: a.topic, messages }],
    });
  };
  try {
    for (let s = 0; s < WARMUP_SENDS; s++) await send(a.n + s * BATCH, BATCH);
    const done = window();
    for (let i = 0; i < a.n; i += BATCH) await send(i, Math.min(BATCH, a.n - i));
    return { messages: a.n, ...done() };
  } finally {
    await producer.disconnect();
  }
}

async function producePlatformatic(a: ChildArgs, plt: PltModule): Promise<Measured> {
  const producer = new plt.Producer({
    clientId: 'kc-bench',
    bootstrapBrokers: BROKERS,
    idempotent: true,
    acks: -1,
    timeout: SEND_TIMEOUT_MS,
    autocreateTopics: false,
    serializers: plt.stringSerializers,
    // The default partitioner is not the Java one (see the ADR); this one is.
    partitioner: plt.compatibilityPartitioner,
  });
  const events = eventsFor(a);
  const send = async (from: number, count: number): Promise<void> => {
    const messages: PltOutgoing[] = [];
    for (let i = from; i < from + count; i++) messages.push({ topic: a.topic, ...events[i]! });
    await producer.send({ messages });
  };
  try {
    for (let s = 0; s < WARMUP_SENDS; s++) await send(a.n + s * BATCH, BATCH);
    const done = window();
    for (let i = 0; i < a.n; i += BATCH) await send(i, Math.min(BATCH, a.n - i));
    return { messages: a.n, ...done() };
  } finally {
    await producer.close();
  }
}

interface Inbound {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly offset: string;
}

/** What the handler does with a batch in this bench: the service's InboundMessage, bytes counted. */
function handle(messages: readonly Inbound[]): number {
  let bytes = 0;
  for (const m of messages) bytes += (m.value?.length ?? 0) + (m.key?.length ?? 0);
  return bytes;
}

/*
 * Consume windows: CPU from before the client is created to the last commit (so the first fetch's
 * decoding is inside; connecting and joining the group add a few ms, the same for both clients);
 * wall from the group join (kafkajs waits the broker's initial rebalance delay first).
 */

async function consumeKafkajs(a: ChildArgs): Promise<Measured> {
  const done = window();
  const kafka = new Kafka({ clientId: 'kc-bench', brokers: BROKERS, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({
    groupId: a.group ?? `kc-${a.run}`,
    sessionTimeout: SESSION_TIMEOUT_MS,
    heartbeatInterval: HEARTBEAT_INTERVAL_MS,
    allowAutoTopicCreation: false,
  });
  let seen = 0;
  let committed = 0;
  let finished!: (m: Measured) => void;
  const result = new Promise<Measured>((ok) => (finished = ok));
  consumer.on(consumer.events.GROUP_JOIN, () => done.startWall());
  await consumer.connect();
  await consumer.subscribe({ topics: [a.topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: PARTITIONS,
    eachBatch: async (payload) => {
      const { batch } = payload;
      const inbound = batch.messages.map((m) => ({ key: m.key, value: m.value, offset: m.offset }));
      seen += inbound.length;
      handle(inbound);
      await Promise.resolve();
      const last = batch.messages[batch.messages.length - 1];
      if (!last) return;
      payload.resolveOffset(last.offset);
      await consumer.commitOffsets([
        { topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() },
      ]);
      committed += inbound.length;
      if (committed >= a.n) finished({ messages: seen, ...done() });
    },
  });
  try {
    return await result;
  } finally {
    await consumer.disconnect();
  }
}

async function consumePlatformatic(a: ChildArgs, plt: PltModule): Promise<Measured> {
  const done = window();
  const consumer = new plt.Consumer({
    clientId: 'kc-bench',
    bootstrapBrokers: BROKERS,
    groupId: a.group ?? `kc-${a.run}`,
    sessionTimeout: SESSION_TIMEOUT_MS,
    heartbeatInterval: HEARTBEAT_INTERVAL_MS,
    autocommit: false,
    // kafkajs's fetch limits, so both fetch the same amounts.
    maxBytes: 10 * 1024 * 1024,
    maxBytesPerPartition: 1024 * 1024,
    maxWaitTime: 5_000,
  });
  consumer.on('consumer:group:join', () => done.startWall());
  let seen = 0;
  let committed = 0;
  let finished!: (m: Measured) => void;
  let failed!: (e: unknown) => void;
  const result = new Promise<Measured>((ok, fail) => {
    finished = ok;
    failed = fail;
  });
  // The stream hands over single messages; a batch is what one partition got before the next turn
  // of the event loop (one fetch response), handled one partition batch at a time per partition.
  const pending = new Map<number, PltMessage[]>();
  const busy = new Set<number>();
  let scheduled = false;
  const runPartition = async (partition: number): Promise<void> => {
    busy.add(partition);
    try {
      for (;;) {
        const messages = pending.get(partition);
        if (!messages || messages.length === 0) return;
        pending.delete(partition);
        const inbound = messages.map((m) => ({
          key: m.key ?? null,
          value: m.value ?? null,
          offset: m.offset.toString(),
        }));
        handle(inbound);
        await Promise.resolve();
        await messages[messages.length - 1]?.commit();
        committed += messages.length;
        if (committed >= a.n) finished({ messages: seen, ...done() });
      }
    } finally {
      busy.delete(partition);
    }
  };
  const flush = (): void => {
    scheduled = false;
    for (const partition of pending.keys()) {
      if (!busy.has(partition)) runPartition(partition).catch(failed);
    }
  };
  const stream = await consumer.consume({
    topics: [a.topic],
    mode: 'committed',
    fallbackMode: 'earliest',
  });
  stream.on('error', failed);
  stream.on('data', (m) => {
    seen++;
    const list = pending.get(m.partition);
    if (list) list.push(m);
    else pending.set(m.partition, [m]);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  try {
    return await result;
  } finally {
    await stream.close().catch(() => undefined);
    await consumer.close(true);
  }
}

async function child(a: ChildArgs): Promise<void> {
  let m: Measured;
  if (a.client === 'kafkajs') {
    m = a.phase === 'produce' ? await produceKafkajs(a) : await consumeKafkajs(a);
  } else {
    const plt = await loadPlatformatic();
    if (!plt) throw new Error('@platformatic/kafka does not resolve');
    m = a.phase === 'produce' ? await producePlatformatic(a, plt) : await consumePlatformatic(a, plt);
  }
  process.stdout.write(`${JSON.stringify(m)}\n`);
}

// ---- parent ----

function runChild(a: ChildArgs): Promise<Measured> {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, [THIS_FILE, 'child', JSON.stringify(a)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => p.kill('SIGKILL'), 300_000);
    p.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return fail(new Error(`${a.phase} ${a.client} exited with ${code}`));
      try {
        ok(JSON.parse(out.trim().split('\n').pop() ?? '') as Measured);
      } catch (e) {
        fail(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function fmt(x: number, digits = 0): string {
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function summary(xs: readonly number[], digits = 0): string {
  if (xs.length === 0) return 'n/a';
  return `${fmt(median(xs), digits)} (${fmt(Math.min(...xs), digits)}-${fmt(Math.max(...xs), digits)})`;
}

/** ns per call of fn over inputs, best of 15 passes (a CPU micro-benchmark, no I/O). */
function nsPerCall<T>(inputs: readonly T[], fn: (x: T) => unknown): number {
  let best = Infinity;
  let sink = 0;
  for (let pass = 0; pass < 15; pass++) {
    const t0 = process.hrtime.bigint();
    for (const x of inputs) sink ^= Number(fn(x)) | 0;
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / inputs.length);
  }
  if (sink === 0.5) console.log(sink);
  return best;
}

function micro(plt: PltModule): void {
  const kjsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2.js') as (k: Buffer) => number;
  const kjsCrc32c = require('kafkajs/src/protocol/recordBatch/crc32C/index.js') as (b: Buffer) => number;
  const keys = Array.from({ length: 100_000 }, (_, i) => Buffer.from(`payout/acc_${i % 7}/kc_bench_${i}`));
  // The checksum alone, over one contiguous record batch for both: @platformatic/kafka holds a batch as
  // a DynamicBuffer of pieces and concatenates it first (that copy, and the garbage collections large
  // copies cause, are in the produce figures, not here).
  const values = eventsFor({ phase: 'produce', client: 'kafkajs', topic: '', run: 'micro', n: 6000 });
  const pieces = Array.from({ length: 20 }, (_, i) =>
    values.slice(i * 300, (i + 1) * 300).map((m) => Buffer.from(m.value)),
  );
  const batches = pieces.map((p) => Buffer.concat(p));
  const entry = findPlatformatic() ?? '';
  const { DynamicBuffer } = createRequire(entry)('@platformatic/dynamic-buffer') as {
    DynamicBuffer: new (buffers: Buffer[]) => Buffer;
  };
  const dynamic = batches.map((b) => new DynamicBuffer([b]));
  const nativeCrc = plt.loadNativeCRC32C() !== null;
  console.log('Per-call CPU, in-process (best of 15 passes):');
  console.log('| operation | kafkajs | @platformatic/kafka |');
  console.log('| --- | --- | --- |');
  console.log(
    `| murmur2 of a key (~30 bytes) | ${fmt(nsPerCall(keys, kjsMurmur2))} ns (libs/messaging's JavaPartitioner: ${fmt(nsPerCall(keys, serviceMurmur2))} ns) | ${fmt(nsPerCall(keys, plt.murmur2))} ns (BigInt) |`,
  );
  const kb = (batches[0]?.length ?? 0) / 1024;
  console.log(
    `| crc32c of ${fmt(kb)} KB (300 messages) | ${fmt(nsPerCall(batches, kjsCrc32c) / 1000)} µs | ${fmt(nsPerCall(dynamic, plt.crc32c) / 1000)} µs (${nativeCrc ? 'native @node-rs/crc32' : 'WebAssembly'}) |`,
  );
  // Partition placement: kafkajs's DefaultPartitioner is the Java client's (murmur2 & 0x7fffffff).
  const kjsPartition = (k: Buffer, n: number): number => (kjsMurmur2(k) & 0x7fffffff) % n;
  let compatMismatch = 0;
  let defaultMismatch = 0;
  let checked = 0;
  for (const n of [1, 2, 3, 5, 6, 7, 12, 24, 50]) {
    for (const k of keys) {
      const expected = kjsPartition(k, n);
      if (plt.compatibilityPartitioner(undefined, k) % n !== expected) compatMismatch++;
      if (plt.defaultPartitioner(undefined, k) % n !== expected) defaultMismatch++;
      checked++;
    }
  }
  console.log(
    `\nPartition of ${fmt(keys.length)} keys x 9 partition counts (1-50) against kafkajs's DefaultPartitioner:` +
      ` compatibilityPartitioner differs in ${fmt(compatMismatch)} of ${fmt(checked)},` +
      ` defaultPartitioner (the library's default) in ${fmt(defaultMismatch)}.`,
  );
}

/** Reads a topic with kafkajs and counts messages not on kafkajs's DefaultPartitioner's partition. */
async function misplaced(kafka: Kafka, topic: string, expected: number, run: string): Promise<number> {
  const kjsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2.js') as (k: Buffer) => number;
  const consumer = kafka.consumer({ groupId: `kc-${run}-verify` });
  let seen = 0;
  let wrong = 0;
  let finished!: () => void;
  const all = new Promise<void>((ok) => (finished = ok));
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) {
        seen++;
        if (m.key && (kjsMurmur2(m.key) & 0x7fffffff) % PARTITIONS !== batch.partition) wrong++;
      }
      if (seen >= expected) finished();
    },
  });
  await Promise.race([all, new Promise((r) => setTimeout(r, 60_000))]);
  await consumer.disconnect();
  if (seen < expected) throw new Error(`verify read ${seen} of ${expected} messages`);
  return wrong;
}

async function parent(): Promise<void> {
  const plt = await loadPlatformatic();
  const wanted = (process.env['BENCH_KC_CLIENTS'] ?? 'kafkajs,platformatic').split(',') as ClientName[];
  const clients = wanted.filter((c) => c === 'kafkajs' || (c === 'platformatic' && plt));
  if (!plt) {
    console.log(
      '@platformatic/kafka does not resolve (not a dependency of this project): measuring kafkajs alone.\n' +
        'To compare: mkdir -p /tmp/kc && (cd /tmp/kc && npm init -y && npm install @platformatic/kafka@2), then\n' +
        'BENCH_PLATFORMATIC_FROM=/tmp/kc node dist/bench/kafka-clients.bench.js',
    );
  }
  const kjsVersion = (require('kafkajs/package.json') as { version: string }).version;
  console.log(
    `kafkajs ${kjsVersion}${plt ? `, @platformatic/kafka ${platformaticVersion()} (crc32c: ${plt.loadNativeCRC32C() ? 'native @node-rs/crc32' : 'WebAssembly'})` : ''}; ` +
      `${fmt(N)} messages per run (+${WARMUP_SENDS} warm-up sends), ${BATCH} per send, ${PARTITIONS} partitions, ${RUNS} runs, node ${process.version}`,
  );
  const sample = eventsFor({ phase: 'produce', client: 'kafkajs', topic: '', run: 'sample', n: 1000 });
  const avg = sample.reduce((sum, m) => sum + Buffer.byteLength(m.value), 0) / sample.length;
  console.log(`shape ${SHAPE}: values ${fmt(avg)} bytes on average, keys like ${sample[0]?.key ?? ''}`);
  if (plt) micro(plt);
  const run = Date.now().toString(36);
  const kafka = new Kafka({ clientId: 'kc-bench', brokers: BROKERS, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topics: string[] = [];
  const results = new Map<string, Measured[]>();
  const add = (k: string, m: Measured): void => {
    results.set(k, [...(results.get(k) ?? []), m]);
  };
  try {
    for (let r = 0; r < RUNS; r++) {
      const order = r % 2 === 0 ? clients : [...clients].reverse();
      const round = Object.fromEntries(clients.map((c) => [c, `kc-${run}-r${r}-${c}`])) as Record<
        ClientName,
        string
      >;
      const created = clients.map((c) => round[c]);
      topics.push(...created);
      await admin.createTopics({
        waitForLeaders: true,
        topics: created.map((topic) => ({ topic, numPartitions: PARTITIONS, replicationFactor: -1 })),
      });
      for (const client of order) {
        const m = await runChild({ phase: 'produce', client, topic: round[client], run, n: N });
        add(`produce ${client}`, m);
        console.log(
          `run ${r + 1} produce ${client}: ${fmt(m.messages / (m.wallMs / 1000))} msg/s, ${fmt((m.cpuMs / m.messages) * 1000, 1)} CPU ms/1k`,
        );
      }
      // Both consume the same topic (kafkajs wrote it, or the only client measured).
      const source = round[clients.includes('kafkajs') ? 'kafkajs' : 'platformatic'];
      const total = N + WARMUP_SENDS * BATCH;
      for (const client of order) {
        const group = `kc-${run}-r${r}-${client}-consume`;
        const m = await runChild({ phase: 'consume', client, topic: source, run, n: total, group });
        add(`consume ${client}`, m);
        console.log(
          `run ${r + 1} consume ${client}: ${fmt(m.messages / (m.wallMs / 1000))} msg/s, ${fmt((m.cpuMs / m.messages) * 1000, 1)} CPU ms/1k`,
        );
      }
      if (r === 0 && plt && clients.includes('platformatic')) {
        const wrong = await misplaced(kafka, round.platformatic, total, run);
        console.log(
          `partition check: ${fmt(wrong)} of ${fmt(total)} messages @platformatic/kafka produced are not where kafkajs puts their key`,
        );
      }
    }
    if (RUNS === 0) return;
    console.log(`\n| measure (median of ${RUNS}, min-max) | ${clients.join(' | ')} |`);
    console.log(`| --- |${clients.map(() => ' --- |').join('')}`);
    for (const phase of ['produce', 'consume']) {
      const cells = (f: (m: Measured) => number, digits: number): string =>
        clients.map((c) => summary((results.get(`${phase} ${c}`) ?? []).map(f), digits)).join(' | ');
      console.log(`| ${phase}: msg/s | ${cells((m) => m.messages / (m.wallMs / 1000), 0)} |`);
      console.log(
        `| ${phase}: CPU ms per 1,000 messages | ${cells((m) => (m.cpuMs / m.messages) * 1000, 1)} |`,
      );
    }
    // Rounds run the two clients back to back, under about the same load from the rest of the box:
    // the ratio within a round is steadier than either figure.
    const perMessage = (k: string): number[] => (results.get(k) ?? []).map((m) => m.cpuMs / m.messages);
    if (clients.length === 2) {
      for (const phase of ['produce', 'consume']) {
        const kjs = perMessage(`${phase} kafkajs`);
        const ratios = perMessage(`${phase} platformatic`).map((p, i) => p / (kjs[i] ?? NaN));
        console.log(
          `${phase}: CPU per message, platformatic / kafkajs within each round: ${summary(ratios, 2)}`,
        );
      }
    }
  } finally {
    await admin
      .deleteTopics({ topics })
      .catch((e: unknown) => console.log(`could not delete topics: ${String(e)}`));
    await admin.disconnect();
  }
}

if (process.argv[2] === 'child') {
  child(JSON.parse(process.argv[3] ?? '{}') as ChildArgs).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
} else {
  parent().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
