import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '#test-support';

// The provider's fee of each transfer (issue 32 item 5), end to end on real Kafka and Postgres with
// the sandbox charging a fee on a v2 account: the payout's SUCCESS event carries it and the ledger
// row holds it, exactly. With no fee set the sandbox's v2 transfer objects say 0: a known zero.

const ACCOUNT = { bankAccount: '026291800001191', ifsc: 'YESB0000262' } as const;

interface FeeRow {
  status: string;
  fee_charge: string | null;
  fee_tax: string | null;
}

describe('transfer fees on a v2 account, end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { PROVIDER_API_GENERATION: 'v2' } });
    await stack.registerBeneficiary({ beneId: 'FEEBENE', ...ACCOUNT });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  const pay = (transferId: string, amount: string) =>
    stack.send({
      type: 'payout.standard_transfer',
      data: { transferId, beneId: 'FEEBENE', amount, transferMode: 'imps' },
    });

  const rowOf = async (transferId: string): Promise<FeeRow | undefined> =>
    (
      await stack.sql<FeeRow>('SELECT status, fee_charge, fee_tax FROM payout WHERE transfer_id = $1', [
        transferId,
      ])
    )[0];

  it('a charged fee reaches the SUCCESS event and the ledger row, exactly', async () => {
    await stack.sandboxCall('POST', '/__sandbox/fees', { transferCharge: '3.00' });
    await pay('fee_v2_1', '250.00');
    const done = await stack.waitForStatus('fee_v2_1', 'SUCCESS', 30_000);
    // 18 % GST on Rs. 3.00 is Rs. 0.54 (docs/SANDBOX.md, "Balance and fees").
    assert.deepEqual(done.data.fee, { charge: '3.00', tax: '0.54' });
    assert.equal(done.data.amount, '250.00', 'the amount is the payout, the fee is beside it');
    const row = await rowOf('fee_v2_1');
    assert.deepEqual(row, { status: 'SUCCESS', fee_charge: '3.00', fee_tax: '0.54' });
    // Only the settled event says it: the earlier ones (accepted, submitting, pending) carry none.
    const earlier = stack.eventsOf('fee_v2_1').filter((e) => e.data.status !== 'SUCCESS');
    assert.ok(earlier.length > 0);
    for (const e of earlier) assert.equal(e.data.fee, undefined, e.type);
  });

  it('a batch entry settled by the v2 batch status carries its own fee, event and row', async () => {
    await stack.sandboxCall('POST', '/__sandbox/fees', { transferCharge: '2.50' });
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'fee_batch_1',
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          { transferId: 'fee_be_1', amount: '11.00', name: 'A Person', phone: '9876543210', ...ACCOUNT },
        ],
      },
    });
    await stack.waitForStatus('fee_batch_1', 'COMPLETED', 30_000);
    const entry = await stack.waitForStatus('fee_be_1', 'SUCCESS');
    // 18 % of Rs. 2.50 is Rs. 0.45.
    assert.deepEqual(entry.data.fee, { charge: '2.50', tax: '0.45' });
    const [row] = await stack.sql<FeeRow>(
      'SELECT status, fee_charge, fee_tax FROM batch_item WHERE transfer_id = $1',
      ['fee_be_1'],
    );
    assert.deepEqual(row, { status: 'SUCCESS', fee_charge: '2.50', fee_tax: '0.45' });
  });

  it('with no fee set the provider says 0: a known zero, kept as such', async () => {
    await stack.sandboxCall('POST', '/__sandbox/fees', { transferCharge: '0.00' });
    await pay('fee_v2_0', '99.99');
    const done = await stack.waitForStatus('fee_v2_0', 'SUCCESS', 30_000);
    assert.deepEqual(done.data.fee, { charge: '0.00', tax: '0.00' });
    assert.deepEqual(await rowOf('fee_v2_0'), { status: 'SUCCESS', fee_charge: '0.00', fee_tax: '0.00' });
  });
});

describe('transfer fees on a v1 account: the provider says none, so none is known', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ sandbox: { transferCharge: '3.00' } });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('a v1 payout paid while a fee is charged: no fee in its event, null in the ledger', async () => {
    await stack.send({
      type: 'payout.direct_transfer',
      data: {
        transferId: 'fee_v1_1',
        amount: '40.00',
        beneDetails: { name: 'A Person', phone: '9876543210', ...ACCOUNT },
      },
    });
    const done = await stack.waitForStatus('fee_v1_1', 'SUCCESS', 30_000);
    assert.equal(done.data.providerApi, 'v1');
    assert.equal(done.data.fee, undefined);
    const [row] = await stack.sql<FeeRow>(
      'SELECT status, fee_charge, fee_tax FROM payout WHERE transfer_id = $1',
      ['fee_v1_1'],
    );
    assert.deepEqual(row, { status: 'SUCCESS', fee_charge: null, fee_tax: null });
  });
});
