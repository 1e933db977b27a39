/**
 * The fair physical limit for the end-to-end figure: the same outside work as the service, with no
 * ledger logic. kafkajs consumes the commands (partitions handled concurrently, as the service
 * does) -> one batched INSERT -> one HTTP call per message to the sandbox's directTransfer over
 * undici (bearer token fetched once) -> one batched UPDATE with the answers -> one event produced
 * per message. Timed like the service's end-to-end run: from the first command sent to the last
 * event seen by a separate consumer of the events topic.
 */
import { type Kafka } from 'kafkajs';
import { Pool as HttpPool } from 'undici';
import { benchDatabase, benchPool, dropDatabase, freshDatabase } from './support.js';

export interface RawPipelineOptions {
  readonly kafka: Kafka;
  readonly sandboxUrl: string;
  readonly template: string;
  /** Partitions handled at once (the service's KAFKA_PARTITIONS_CONCURRENCY). */
  readonly partitionsConcurrently: number;
  /** HTTP connections to the sandbox (the service's executor concurrency). */
  readonly connections: number;
  readonly run: string;
  readonly command: (i: number, tag: string) => { key: string; value: string };
  readonly ensureTopics: (names: string[]) => Promise<void>;
  /** Called as the load starts (no argument) and once the events are in (the count seen). */
  readonly onLoad?: (seen?: number) => void;
}

async function token(http: HttpPool): Promise<string> {
  const res = await http.request({
    path: '/payout/v1/authorize',
    method: 'POST',
    headers: { 'x-client-id': 'sandbox_client_id', 'x-client-secret': 'sandbox_client_secret' },
  });
  const body = (await res.body.json()) as { data?: { token?: string } };
  const t = body.data?.token;
  if (!t) throw new Error(`authorize answered ${res.statusCode} without a token`);
  return t;
}

/** Payouts per second through the raw pipeline, for `n` commands sent at once. */
export async function rawPipeline(n: number, o: RawPipelineOptions): Promise<number> {
  const dbName = benchDatabase('raw');
  const db = await freshDatabase(dbName, o.template);
  const pool = benchPool(db, o.partitionsConcurrently + 2);
  await pool.query(
    'CREATE TABLE raw_payout (k text PRIMARY KEY, v jsonb NOT NULL, status text NOT NULL, answer jsonb)',
  );
  const http = new HttpPool(o.sandboxUrl, { connections: o.connections, pipelining: 1 });
  const bearer = `Bearer ${await token(http)}`;
  const prefix = `bench-raw-${o.run}`;
  const inTopic = `${prefix}.in`;
  const outTopic = `${prefix}.out`;
  await o.ensureTopics([inTopic, outTopic]);
  const producer = o.kafka.producer();
  await producer.connect();
  const worker = o.kafka.consumer({ groupId: `${prefix}.worker` });
  const observer = o.kafka.consumer({ groupId: `${prefix}.observer` });
  await Promise.all([worker.connect(), observer.connect()]);
  await worker.subscribe({ topic: inTopic, fromBeginning: true });
  await observer.subscribe({ topic: outTopic, fromBeginning: true });

  await worker.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: o.partitionsConcurrently,
    eachBatch: async (payload) => {
      const { batch } = payload;
      const msgs = batch.messages;
      const last = msgs[msgs.length - 1];
      if (!last) return;
      const keys = msgs.map((m) => m.key?.toString() ?? '');
      await pool.query(
        `INSERT INTO raw_payout (k, v, status)
         SELECT k, v, 'NEW' FROM unnest($1::text[], $2::jsonb[]) AS t(k, v) ON CONFLICT DO NOTHING`,
        [keys, msgs.map((m) => m.value?.toString() ?? '{}')],
      );
      const answers = await Promise.all(
        msgs.map(async (m) => {
          const { data } = JSON.parse(m.value?.toString() ?? '{}') as {
            data: { transferId: string; amount: string; beneDetails: object };
          };
          // The amount goes out as a JSON number written from its decimal string, as the service's
          // adapter does: never through a float.
          const body = `{"amount":${data.amount},"transferId":${JSON.stringify(data.transferId)},"transferMode":"banktransfer","beneDetails":${JSON.stringify(data.beneDetails)}}`;
          const res = await http.request({
            path: '/payout/v1.2/directTransfer',
            method: 'POST',
            headers: { authorization: bearer, 'content-type': 'application/json' },
            body,
          });
          return { status: res.statusCode, body: await res.body.text() };
        }),
      );
      const statuses = answers.map((a) => (a.status === 200 ? 'SUCCESS' : 'FAILED'));
      await pool.query(
        `UPDATE raw_payout p SET status = t.s, answer = t.a
           FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS t(k, s, a) WHERE p.k = t.k`,
        [keys, statuses, answers.map((a) => a.body)],
      );
      await producer.send({
        topic: outTopic,
        messages: msgs.map((m, i) => ({
          key: m.key,
          value: JSON.stringify({ subject: keys[i], data: { status: statuses[i] } }),
        })),
      });
      payload.resolveOffset(last.offset);
      await worker.commitOffsets([
        { topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() },
      ]);
    },
  });
  let seen = 0;
  let lastSeen = 0;
  let notSuccess = 0;
  const finished = new Promise<void>((resolveDone) => {
    void observer.run({
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) {
          if (!m.value?.toString().includes('"SUCCESS"')) notSuccess++;
        }
        seen += batch.messages.length;
        lastSeen = performance.now();
        if (seen >= n) resolveDone();
        return Promise.resolve();
      },
    });
  });
  await new Promise((r) => setTimeout(r, 2000));
  const msgs = Array.from({ length: n }, (_, i) => o.command(i, 'raw'));
  o.onLoad?.();
  const t0 = performance.now();
  for (let i = 0; i < msgs.length; i += 500)
    await producer.send({ topic: inTopic, messages: msgs.slice(i, i + 500) });
  await Promise.race([finished, new Promise((r) => setTimeout(r, 180_000))]);
  o.onLoad?.(seen);
  const rate = seen / ((lastSeen - t0) / 1000);
  await Promise.all([worker.disconnect(), observer.disconnect(), producer.disconnect()]);
  await http.close();
  await pool.end();
  await dropDatabase(dbName);
  if (notSuccess > 0)
    throw new Error(`raw pipeline: ${notSuccess} of ${seen} transfers were not answered 200`);
  if (seen < n) throw new Error(`raw pipeline: only ${seen} of ${n} events within 180 s`);
  return rate;
}
