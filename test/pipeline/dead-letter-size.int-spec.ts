import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type KafkaMessage } from 'kafkajs';
import { eventually, startStack, type Stack } from '#test-support';

const ACCOUNT = '026291800001191';
// Default MAX_COMMAND_BYTES (512 KiB); the broker takes record batches up to 1048588 bytes.
const INVALID_UTF8_BYTES = 300_000;

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
describe('dead letters larger after scrubbing, several in one batch', () => {
  let stack: Stack;
  const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();

  before(async () => {
    stack = await startStack();
    // Separate produce requests (each under the broker's limit), all read by intake in one fetch;
    // the same key sends their dead letters to one DLQ partition.
    for (const n of [1, 2]) await stack.sendToPartition(0, [{ key: 'ds_same', value: inflating(n) }]);
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
    await eventually(() => (stack.dlq.length >= 2 ? true : undefined), { what: 'two dead letters' });
    assert.equal(stack.dlq.length, 2);
    for (const d of stack.dlq) {
      assert.equal(header(d, 'dlq-reason'), 'unknown_type');
      assert.equal(header(d, 'dlq-scrubbed'), 'true');
      assert.equal(header(d, 'dlq-truncated'), 'true');
      assert.equal(header(d, 'dlq-original-bytes'), String(inflating(1).length));
      assert.ok((d.value?.length ?? 0) <= 512 * 1024, `value of ${d.value?.length} bytes`);
      assert.ok(!d.value?.toString().includes(ACCOUNT));
      assert.match(String(d.value), /"bankAccount":"XXXXXXXXXXX1191"/);
    }
    assert.deepEqual(stack.dlq.map((d) => header(d, 'dlq-original-offset')).sort(), ['0', '1']);
  });
});
