import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type KafkaMessage } from 'kafkajs';
import { eventually, startStack, type Stack } from '#test-support';

const ACCOUNT = '026291800001191';
// Default MAX_COMMAND_BYTES (512 KiB); the broker takes record batches up to 1048588 bytes.
const INVALID_UTF8_BYTES = 300_000;
const FIELD_ACCOUNT = '9876543210';

/**
 * A JSON object holding an account number and 300 kB of bytes that are not UTF-8: under the
 * command size limit, but scrubbing re-encodes each bad byte as U+FFFD (3 bytes), about 900 kB.
 */
const inflating = (n: number) =>
  Buffer.concat([
    Buffer.from(`{"type":"payout.teleport","n":${n},"bankAccount":"${ACCOUNT}","junk":"`),
    Buffer.alloc(INVALID_UTF8_BYTES, 0xff),
    Buffer.from('"}'),
  ]);

// Invariant: a dead letter always fits the broker, alone and with the others of its batch, so
// dead letters never stall a partition.
describe('dead letters larger after scrubbing, several in one batch, and what their key and detail show', () => {
  let stack: Stack;
  const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();

  before(async () => {
    stack = await startStack();
    // Separate produce requests (each under the broker's limit), all read by intake in one fetch;
    // the same key sends their dead letters to one DLQ partition.
    for (const n of [1, 2]) await stack.sendToPartition(0, [{ key: 'ds_same', value: inflating(n) }]);
    // Keyed by an account number, with an unexpected field named by another one.
    await stack.sendToPartition(0, [
      {
        key: ACCOUNT,
        value: JSON.stringify({
          type: 'payout.internal_transfer',
          data: { transferId: 'ds_k', amount: '1.00', rechargeAccount: 'RA1', [FIELD_ACCOUNT]: 1 },
        }),
      },
    ]);
    await stack.sendToPartition(0, [
      {
        key: 'ds_ok',
        value: JSON.stringify({
          type: 'payout.internal_transfer',
          data: { transferId: 'ds_ok', amount: '10.00', rechargeAccount: 'RA0001' },
        }),
      },
    ]);
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('the valid command behind them is processed', async () => {
    await stack.waitForStatus('ds_ok', 'SUCCESS', 30_000);
  });

  it('both are dead-lettered, scrubbed, cut to the size limit, with no account number', async () => {
    await eventually(() => (stack.dlq.length >= 3 ? true : undefined), { what: 'three dead letters' });
    assert.equal(stack.dlq.length, 3);
    const big = stack.dlq.filter((d) => header(d, 'dlq-original-offset') !== '2');
    for (const d of big) {
      assert.equal(header(d, 'dlq-reason'), 'malformed_json'); // not UTF-8
      assert.equal(header(d, 'dlq-scrubbed'), 'true');
      assert.equal(header(d, 'dlq-truncated'), 'true');
      assert.equal(header(d, 'dlq-original-bytes'), String(inflating(1).length));
      assert.ok((d.value?.length ?? 0) <= 512 * 1024, `value of ${d.value?.length} bytes`);
      assert.ok(!d.value?.toString().includes(ACCOUNT));
      assert.match(String(d.value), /"bankAccount":"XXXXXXXXXXX1191"/);
    }
    assert.deepEqual(big.map((d) => header(d, 'dlq-original-offset')).sort(), ['0', '1']);
  });

  it('a dead letter keyed by an account number, or naming one in its detail, shows neither whole', async () => {
    const d = await eventually(() => stack.dlq.find((m) => header(m, 'dlq-original-offset') === '2'), {
      what: 'the dead letter at offset 2',
    });
    assert.equal(header(d, 'dlq-reason'), 'schema_violation');
    assert.equal(d.key?.toString(), 'XXXXXXXXXXX1191');
    assert.equal(header(d, 'dlq-scrubbed'), 'true');
    assert.match(String(header(d, 'dlq-detail')), /unknown field XXXXXX3210;/);
    const table = JSON.stringify(await stack.sql('SELECT detail FROM dead_letter'));
    const shown = [
      d.key?.toString(),
      String(d.value),
      ...Object.values(d.headers ?? {}).map(String),
      table,
    ].join('\n');
    for (const leak of [ACCOUNT, FIELD_ACCOUNT]) assert.ok(!shown.includes(leak), `${leak} in ${shown}`);
  });
});
