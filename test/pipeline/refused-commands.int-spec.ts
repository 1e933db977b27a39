import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type KafkaMessage } from 'kafkajs';
import { eventually, startStack, type Stack } from '#test-support';
import { parseExposition, valueOf } from '../observability/prom-text.js';

const json = (v: unknown) => JSON.stringify(v);
const internal = (transferId: string, amount = '10.00') => ({
  type: 'payout.internal_transfer',
  data: { transferId, amount, rechargeAccount: 'RA0001' },
});

/**
 * Commands an older schema let through and Postgres refuses (amount 0, NUL, a lone surrogate, a
 * batch total beyond NUMERIC(16,2)), and one a constraint added by this test refuses: the kind of
 * refusal no schema foresees. All on partition 0, in one produce request, between valid ones.
 */
const MESSAGES: ReadonlyArray<{ name: string; key: string; value: string; reason?: string }> = [
  { name: 'valid 1', key: 'rf_ok_1', value: json(internal('rf_ok_1')) },
  {
    name: 'amount 0',
    key: 'rf_zero',
    value: json({
      type: 'payout.standard_transfer',
      data: { transferId: 'rf_zero', beneId: 'BENE1', amount: '0', transferMode: 'banktransfer' },
    }),
    reason: 'schema_violation',
  },
  {
    name: 'amount 0.00',
    key: 'rf_zero2',
    value: json(internal('rf_zero2', '0.00')),
    reason: 'schema_violation',
  },
  {
    name: 'a NUL character in free text',
    key: 'rf_nul',
    value: json({
      type: 'payout.self_withdrawal',
      data: { withdrawalId: 'rf_nul', amount: '1.00', remarks: 'a\u0000b' },
    }),
    reason: 'schema_violation',
  },
  {
    name: 'a lone surrogate in a name',
    key: 'rf_surrogate',
    value: json({
      type: 'payout.direct_transfer',
      data: {
        transferId: 'rf_surrogate',
        amount: '1.00',
        beneDetails: { name: 'A \ud800 Person', vpa: 'someone@upi' },
      },
    }),
    reason: 'schema_violation',
  },
  {
    name: 'a batch whose total overflows NUMERIC(16,2)',
    key: 'rf_batch_big',
    value: json({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'rf_batch_big',
        batchFormat: 'BENEFICIARY_ID',
        entries: Array.from({ length: 101 }, (_, i) => ({
          transferId: `rf_big_${i}`,
          amount: '999999999999.99',
          beneId: 'BENE1',
          transferMode: 'banktransfer',
        })),
      },
    }),
    reason: 'schema_violation',
  },
  {
    name: 'refused by a constraint',
    key: 'rf_poison',
    value: json(internal('rf_poison')),
    reason: 'database_refused',
  },
  { name: 'valid 2', key: 'rf_ok_2', value: json(internal('rf_ok_2')) },
];

// Invariant: a message the database refuses never stalls its partition; a partition that does
// stall (the database cannot work) shows on /health/ready and in the metrics.
describe('commands the database refuses', () => {
  let stack: Stack;
  const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();
  const dlqOf = (key: string) => stack.dlq.find((m) => m.key?.toString() === key);
  const ready = async () => {
    const res = await fetch(`${stack.services[0]?.url ?? ''}/health/ready`);
    return {
      status: res.status,
      body: (await res.json()) as { error?: Record<string, { status: string; message?: string }> },
    };
  };

  before(async () => {
    stack = await startStack();
    await stack.sql(
      `ALTER TABLE payout ADD CONSTRAINT test_refuses_rf_poison CHECK (transfer_id <> 'rf_poison')`,
    );
    await stack.startService();
    await stack.sendToPartition(0, MESSAGES);
  });
  after(async () => {
    await stack?.close();
  });

  it('valid commands behind refused ones on the same partition reach their terminal state', async () => {
    for (const m of MESSAGES.filter((x) => !x.reason)) await stack.waitForStatus(m.key, 'SUCCESS');
  });

  it('each refused command is dead-lettered once, with its reason, and recorded', async () => {
    const dead = MESSAGES.filter((m) => m.reason);
    await eventually(() => (stack.dlq.length >= dead.length ? true : undefined), {
      what: `${dead.length} dead letters`,
    });
    for (const m of dead) {
      const d = dlqOf(m.key);
      assert.ok(d, `${m.name} is dead-lettered`);
      assert.equal(header(d, 'dlq-reason'), m.reason, m.name);
    }
    assert.equal(stack.dlq.length, dead.length);
    assert.match(
      String(header(dlqOf('rf_poison') as KafkaMessage, 'dlq-detail')),
      /^23514: .*check constraint/,
    );
    assert.match(String(header(dlqOf('rf_zero') as KafkaMessage, 'dlq-detail')), /\/data\/amount/);
    assert.match(String(header(dlqOf('rf_batch_big') as KafkaMessage, 'dlq-detail')), /total/);
    const rows = await stack.sql<{ offset: string; reason: string }>(
      'SELECT "offset", reason FROM dead_letter ORDER BY "offset"::bigint',
    );
    assert.deepEqual(
      rows.map((r) => [Number(r.offset), r.reason]),
      MESSAGES.flatMap((m, i) => (m.reason ? [[i, m.reason]] : [])),
    );
    const [payouts] = await stack.sql<{ n: number }>('SELECT count(*)::int AS n FROM payout');
    assert.equal(payouts?.n, 2);
  });

  it('a partition that keeps failing turns readiness red and shows in the metrics, until it recovers', async () => {
    // A trigger raising a system error: the database cannot work, so nothing is dead-lettered.
    await stack.sql(`CREATE FUNCTION test_stuck() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated outage' USING ERRCODE = '58000'; END $$`);
    await stack.sql(`CREATE TRIGGER test_stuck BEFORE INSERT ON payout FOR EACH ROW
      WHEN (NEW.transfer_id = 'rf_stuck') EXECUTE FUNCTION test_stuck()`);
    await stack.sendToPartition(1, [
      { key: 'rf_stuck', value: json(internal('rf_stuck')) },
      { key: 'rf_ok_3', value: json(internal('rf_ok_3')) },
    ]);
    const red = await eventually(
      async () => {
        const r = await ready();
        return r.status === 503 ? r : undefined;
      },
      { timeoutMs: 30_000, what: 'readiness to turn red' },
    );
    assert.equal(red.body.error?.['consumer']?.status, 'down');
    assert.match(
      String(red.body.error?.['consumer']?.message),
      /payouts\.commands\[1\]: \d+ failed deliveries in a row/,
    );
    assert.equal(red.body.error?.['postgres'], undefined, 'postgres itself answers');
    const metrics = parseExposition(await (await fetch(`${stack.services[0]?.url ?? ''}/metrics`)).text());
    assert.equal(
      valueOf(metrics.samples, 'payouts_consumer_failing_partitions', { topic: 'payouts.commands' }),
      1,
    );
    assert.ok(
      (valueOf(metrics.samples, 'payouts_consumer_batch_failures_total', { topic: 'payouts.commands' }) ??
        0) >= 3,
    );
    assert.equal(dlqOf('rf_stuck'), undefined, 'an outage dead-letters nothing');

    await stack.sql('DROP TRIGGER test_stuck ON payout');
    await stack.waitForStatus('rf_stuck', 'SUCCESS', 30_000);
    await stack.waitForStatus('rf_ok_3', 'SUCCESS');
    await eventually(
      async () => {
        const r = await ready();
        return r.status === 200 ? r : undefined;
      },
      { what: 'readiness to turn green again' },
    );
    const recovered = parseExposition(await (await fetch(`${stack.services[0]?.url ?? ''}/metrics`)).text());
    assert.equal(
      valueOf(recovered.samples, 'payouts_consumer_failing_partitions', { topic: 'payouts.commands' }),
      0,
    );
  });
});
