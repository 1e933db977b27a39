import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type KafkaMessage } from 'kafkajs';
import { eventually, startStack, type Stack } from '#test-support';

// Issue 31, item 5: tried as a new user would, a batch whose entry name holds a digit was paid on a
// v1 account and refused by the provider on a v2 account (beneficiary_name: letters and spaces).
// Now the v2 rule refuses it at intake, named, before anything is stored or sent; on v1 it is paid.

const SUCCESS = { bankAccount: '026291800001191', ifsc: 'YESB0000262' } as const;

function batch(batchTransferId: string, secondName: string) {
  return {
    type: 'payout.batch_transfer',
    data: {
      batchTransferId,
      batchFormat: 'BANK_ACCOUNT',
      entries: [
        {
          transferId: `${batchTransferId}_e1`,
          amount: '11.00',
          name: 'A Person',
          phone: '9876543210',
          ...SUCCESS,
        },
        {
          transferId: `${batchTransferId}_e2`,
          amount: '12.00',
          name: secondName,
          phone: '9876543210',
          ...SUCCESS,
        },
      ],
    },
  };
}

async function initiations(stack: Stack, transferId: string): Promise<number> {
  const r = (await stack.sandboxCall('GET', `/__sandbox/outcomes?transferId=${transferId}`)) as {
    outcomes: Array<{ initiations: number }>;
  };
  return r.outcomes.reduce((n, o) => n + o.initiations, 0);
}

const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();

describe('a rule of the account generation, checked at intake', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });

  it('a batch entry name with a digit: paid on a v1 account; on a v2 account refused at intake, never sent', async () => {
    const v1 = await stack.startService();
    await stack.send(batch('gr_v1', 'Person 2'));
    const paid = await stack.waitForStatus('gr_v1', 'COMPLETED', 30_000);
    assert.deepEqual(paid.data.totals, { entries: 2, succeeded: 2, failed: 0, pending: 0 });
    assert.equal(paid.data.providerApi, 'v1');
    await v1.close();
    stack.services.splice(stack.services.indexOf(v1), 1);

    await stack.startService({ PROVIDER_API_GENERATION: 'v2' });
    await stack.send(batch('gr_v2', 'Person 2'));
    const dead = await eventually(async () => stack.dlq.find((m) => m.key?.toString() === 'gr_v2'));
    assert.equal(header(dead, 'dlq-reason'), 'api_generation_rule');
    const detail = header(dead, 'dlq-detail') ?? '';
    assert.match(detail, /v2_beneficiary_name_letters_and_spaces/);
    assert.match(detail, /entries\[1\]\.name/);
    assert.ok(!detail.includes('Person'), 'the reason names the rule, not the value');
    // Nothing stored, nothing sent, no event.
    assert.deepEqual(await stack.sql("SELECT 1 FROM batch WHERE batch_transfer_id = 'gr_v2'"), []);
    const [kept] = await stack.sql<{ reason: string; detail: { detail?: string } }>(
      "SELECT reason, detail FROM dead_letter WHERE reason = 'api_generation_rule'",
    );
    assert.equal(kept?.detail.detail, detail, 'its mirror row keeps the reason: nothing lost');
    assert.equal(await initiations(stack, 'gr_v2_e1'), 0);
    assert.equal(await initiations(stack, 'gr_v2_e2'), 0);
    assert.deepEqual(stack.eventsOf('gr_v2'), []);

    // Corrected, the same id is paid on v2.
    await stack.send(batch('gr_v2', 'Person Two'));
    const done = await stack.waitForStatus('gr_v2', 'COMPLETED', 30_000);
    assert.equal(done.data.providerApi, 'v2');
    assert.deepEqual(done.data.totals, { entries: 2, succeeded: 2, failed: 0, pending: 0 });
  });
});
