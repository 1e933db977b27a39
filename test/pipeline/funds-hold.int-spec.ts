import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startStack, type Stack } from '#test-support';
import { parseExposition, valueOf } from '../observability/prom-text.js';

/*
 * Hold instead of bounce (issue 32 item 3, ADR 0027), end to end on real Kafka and Postgres with
 * the sandbox over HTTP: a burst larger than the provider balance holds the rest and nothing is
 * refused for insufficient balance; funding the account (the sandbox's control call, then the
 * balance reader's next reading) releases them, oldest first; a batch is held and sent whole; the
 * maximum hold rejects what never fitted (funds_hold_expired, never sent). With holding off the
 * provider refuses what does not fit, FAILED as today.
 */

const ACCOUNT = { bankAccount: '026291800001191', ifsc: 'YESB0000262' } as const;
const FAST_READS = { BALANCE_READ_INTERVAL_MS: '300' };

const command = (transferId: string, amount: string) => ({
  type: 'payout.direct_transfer',
  data: { transferId, amount, beneDetails: { name: 'A Person', phone: '9876543210', ...ACCOUNT } },
});
const pay = (stack: Stack, transferId: string, amount: string) => stack.send(command(transferId, amount));

async function statusOf(stack: Stack, ids: readonly string[]): Promise<Record<string, string>> {
  const rows = await stack.sql<{ transfer_id: string; status: string }>(
    'SELECT transfer_id, status FROM payout WHERE transfer_id = ANY($1)',
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.transfer_id, r.status]));
}

/** The service has read the account's balance at least once (nothing is sent before that). */
async function firstReading(stack: Stack): Promise<void> {
  await eventually(
    async () =>
      (await stack.sql("SELECT 1 FROM balance_reading WHERE account_id = 'default' AND read_at IS NOT NULL"))
        .length > 0 || undefined,
    { timeoutMs: 15_000 },
  );
}

/** The provider's refusals for the balance the service counted (FundsBounced's counter). */
async function bounces(stack: Stack): Promise<number | undefined> {
  const res = await fetch(`${stack.services[0]?.url ?? ''}/metrics`);
  const { samples } = parseExposition(await res.text());
  return valueOf(samples, 'payouts_provider_balance_refusals_total', { account: 'default' });
}

/** Initiations the sandbox refused (v1 answers other than accepted). */
async function refusedBySandbox(stack: Stack): Promise<unknown[]> {
  const r = (await stack.sandboxCall('GET', '/__sandbox/received')) as {
    initiations: Array<{ accepted: boolean }>;
  };
  assert.ok(r.initiations.length > 0, 'the sandbox saw initiations');
  return r.initiations.filter((x) => !x.accepted);
}

describe('hold for funds, end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      env: { ...FAST_READS, FUNDS_HOLD: JSON.stringify([{ accountId: 'default', maxHold: '1h' }]) },
    });
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '1000.00' });
    await stack.startService();
    await firstReading(stack);
  });
  after(async () => {
    await stack?.close();
  });

  const ids = Array.from({ length: 10 }, (_, i) => `fh_${String(i).padStart(2, '0')}`);
  /** The burst in the order the service took it in (created_at, then id): first in, first out. */
  let arrival: string[] = [];

  it('a burst larger than the balance: what fits is sent, the rest is held, nothing is refused', async () => {
    // 10 x 150.00 against 1000.00: six fit. One partition, in this order.
    await stack.sendToPartition(
      0,
      ids.map((id) => ({ key: id, value: JSON.stringify(command(id, '150.00')) })),
    );
    await eventually(async () =>
      (await stack.sql('SELECT 1 FROM payout')).length === 10 ? true : undefined,
    );
    arrival = (
      await stack.sql<{ transfer_id: string }>('SELECT transfer_id FROM payout ORDER BY created_at, id')
    ).map((r) => r.transfer_id);
    for (const id of arrival.slice(0, 6)) await stack.waitForStatus(id, 'SUCCESS', 30_000);
    for (const id of arrival.slice(6)) {
      const held = await stack.waitForStatus(id, 'HELD_FOR_FUNDS');
      assert.equal(held.type, 'payouts.payout.held_for_funds');
      assert.equal(held.data.reason, 'insufficient_funds');
    }
    // A while later (several readings), still held: not sent, not refused.
    await new Promise((r) => setTimeout(r, 1_500));
    const s = await statusOf(stack, ids);
    assert.deepEqual(
      arrival.slice(6).map((id) => s[id]),
      ['HELD_FOR_FUNDS', 'HELD_FOR_FUNDS', 'HELD_FOR_FUNDS', 'HELD_FOR_FUNDS'],
    );
    assert.equal(stack.events.filter((e) => e.data.status === 'FAILED').length, 0, 'nothing FAILED');
    assert.deepEqual(await refusedBySandbox(stack), [], 'the provider refused nothing');
    assert.equal(await bounces(stack), 0, 'no bounce counted');
    for (const id of arrival.slice(6))
      assert.equal(
        stack.eventsOf(id).filter((e) => e.data.status === 'HELD_FOR_FUNDS').length,
        1,
        'held_for_funds published once however long it waits',
      );
  });

  it('funding the account releases the held payouts in order, as the balance allows', async () => {
    const [a, b, c, d] = arrival.slice(6) as [string, string, string, string];
    // 100.00 left; +200.00 makes room for two of 150.00: the two oldest.
    await stack.sandboxCall('POST', '/__sandbox/fund', { amount: '200.00' });
    await stack.waitForStatus(a, 'SUCCESS', 30_000);
    await stack.waitForStatus(b, 'SUCCESS', 30_000);
    await new Promise((r) => setTimeout(r, 1_000));
    let s = await statusOf(stack, ids);
    assert.deepEqual([s[c], s[d]], ['HELD_FOR_FUNDS', 'HELD_FOR_FUNDS'], 'the later ones wait');
    await stack.sandboxCall('POST', '/__sandbox/fund', { amount: '300.00' });
    await stack.waitForStatus(c, 'SUCCESS', 30_000);
    await stack.waitForStatus(d, 'SUCCESS', 30_000);
    s = await statusOf(stack, ids);
    assert.ok(ids.every((id) => s[id] === 'SUCCESS'));
    // Released oldest first: the order they went to SUBMITTING is the order they came in.
    const order = await stack.sql<{ transfer_id: string }>(
      `SELECT transfer_id FROM state_history WHERE transfer_id = ANY($1) AND from_status = 'HELD_FOR_FUNDS'
        AND to_status = 'SUBMITTING' ORDER BY id`,
      [ids],
    );
    assert.deepEqual(
      order.map((r) => r.transfer_id),
      [a, b, c, d],
    );
    const submitting = stack.eventsOf(a).find((e) => e.data.status === 'SUBMITTING');
    assert.equal(submitting?.data.reason, undefined, 'sent: the hold reason is gone');
    assert.deepEqual(await refusedBySandbox(stack), []);
  });

  it('a batch larger than the room is held whole, then sent whole when funded', async () => {
    // The balance is 0.00 now; a batch of 2 entries, 300.00 in all.
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'fh_batch',
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          { transferId: 'fh_be_1', amount: '100.00', name: 'A Person', phone: '9876543210', ...ACCOUNT },
          { transferId: 'fh_be_2', amount: '200.00', name: 'A Person', phone: '9876543210', ...ACCOUNT },
        ],
      },
    });
    const held = await stack.waitForStatus('fh_batch', 'HELD_FOR_FUNDS');
    assert.equal(held.type, 'payouts.batch.held_for_funds');
    assert.equal(held.data.reason, 'insufficient_funds');
    await stack.sandboxCall('POST', '/__sandbox/fund', { amount: '299.99' });
    await new Promise((r) => setTimeout(r, 1_500));
    const [b] = await stack.sql<{ status: string }>(
      `SELECT status FROM batch WHERE batch_transfer_id = 'fh_batch'`,
    );
    assert.equal(b?.status, 'HELD_FOR_FUNDS', 'a paisa short: held whole, no entry sent');
    await stack.sandboxCall('POST', '/__sandbox/fund', { amount: '0.01' });
    await stack.waitForStatus('fh_batch', 'COMPLETED', 30_000);
    await stack.waitForStatus('fh_be_1', 'SUCCESS');
    await stack.waitForStatus('fh_be_2', 'SUCCESS');
    assert.deepEqual(await refusedBySandbox(stack), []);
  });
});

describe("hold for funds with the provider's fee, end to end", () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      env: {
        ...FAST_READS,
        // The sandbox's charge of 5.00 and its 18 % tax: 5.90 per transfer, as the pricing says.
        FUNDS_HOLD: JSON.stringify([{ accountId: 'default', fee: '5.90', maxHold: '1h' }]),
      },
    });
    await stack.sandboxCall('POST', '/__sandbox/fees', { transferCharge: '5.00' });
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '1000.00' });
    await stack.startService();
    await firstReading(stack);
  });
  after(async () => {
    await stack?.close();
  });

  it('counts the fee with each payout: what fits by its amount alone but not with its fee is held, not refused', async () => {
    // 10 x 100.00 against 1000.00: all ten fit by amount; each takes 105.90, so nine do.
    const ids = Array.from({ length: 10 }, (_, i) => `fee_${String(i).padStart(2, '0')}`);
    await stack.sendToPartition(
      0,
      ids.map((id) => ({ key: id, value: JSON.stringify(command(id, '100.00')) })),
    );
    for (const id of ids.slice(0, 9)) await stack.waitForStatus(id, 'SUCCESS', 30_000);
    const held = await stack.waitForStatus(ids[9]!, 'HELD_FOR_FUNDS');
    assert.equal(held.data.reason, 'insufficient_funds');
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal((await statusOf(stack, [ids[9]!]))[ids[9]!], 'HELD_FOR_FUNDS', 'still held over readings');
    assert.deepEqual(await refusedBySandbox(stack), [], 'the provider refused nothing');
    assert.equal(await bounces(stack), 0);
    // What the provider took: nine amounts and nine fees.
    const b = (await stack.sandboxCall('GET', '/__sandbox/balance')) as { availableBalance: string };
    assert.equal(b.availableBalance, '46.90');
  });
});

describe('hold for funds, the maximum hold, end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      env: {
        // One reading at start, the next in 10 minutes: the maximum hold must end without one.
        BALANCE_READ_INTERVAL_MS: '600000',
        FUNDS_HOLD: JSON.stringify([{ accountId: 'default', maxHold: '2s' }]),
      },
    });
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '100.00' });
    await stack.startService();
    await firstReading(stack);
  });
  after(async () => {
    await stack?.close();
  });

  it('rejects what never fitted once held past the maximum (funds_hold_expired, never sent); what fits goes', async () => {
    await pay(stack, 'mh_big', '500.00');
    await pay(stack, 'mh_small', '60.00');
    await stack.waitForStatus('mh_big', 'HELD_FOR_FUNDS');
    await stack.waitForStatus('mh_small', 'SUCCESS', 30_000);
    const rejected = await stack.waitForStatus('mh_big', 'REJECTED', 15_000);
    assert.equal(rejected.data.reason, 'funds_hold_expired');
    const [readings] = await stack.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM balance_reading WHERE read_at > now() - interval '2 seconds'`,
    );
    assert.equal(readings?.n, 0, 'no reading since the hold began: the idle look ended it');
    const [row] = await stack.sql<{ attempt: number; sent: boolean; next_check_at: Date | null }>(
      `SELECT attempt, sent_at IS NOT NULL AS sent, next_check_at FROM payout WHERE transfer_id = 'mh_big'`,
    );
    assert.deepEqual(row, { attempt: 0, sent: false, next_check_at: null }, 'never sent, no failed watch');
    const r = (await stack.sandboxCall('GET', '/__sandbox/received?transferId=mh_big')) as {
      initiations: unknown[];
    };
    assert.deepEqual(r.initiations, [], 'the provider never saw it');
  });
});

describe('hold for funds off (the default), end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: FAST_READS });
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '1000.00' });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('behaves as today: the provider refuses what does not fit, FAILED', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `off_${String(i).padStart(2, '0')}`);
    for (const id of ids) await pay(stack, id, '150.00');
    const outcomes = await Promise.all(
      ids.map((id) =>
        eventually(
          () =>
            stack.eventsOf(id).find((e) => e.data.status === 'SUCCESS' || e.data.status === 'FAILED')?.data
              .status,
          { timeoutMs: 30_000 },
        ),
      ),
    );
    assert.equal(outcomes.filter((o) => o === 'SUCCESS').length, 6);
    assert.equal(outcomes.filter((o) => o === 'FAILED').length, 4);
    assert.equal(stack.events.filter((e) => e.data.status === 'HELD_FOR_FUNDS').length, 0);
    const [n] = await stack.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM payout WHERE sent_at IS NOT NULL',
    );
    assert.equal(n?.n, 0, 'sent_at is only written for held accounts');
    // Each refusal is counted for the account (the FundsBounced alert), from the provider's answer.
    assert.equal(await bounces(stack), 4);
  });
});

describe('an account taken out of FUNDS_HOLD, end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: FAST_READS });
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '100.00' });
  });
  after(async () => {
    await stack?.close();
  });

  it('its payouts left HELD_FOR_FUNDS are sent after a restart without it (the provider decides), not stranded', async () => {
    const held = await stack.startService({ FUNDS_HOLD: JSON.stringify([{ accountId: 'default' }]) });
    await firstReading(stack);
    await pay(stack, 'out_1', '500.00');
    await stack.waitForStatus('out_1', 'HELD_FOR_FUNDS', 15_000);
    await held.close();
    stack.services.splice(stack.services.indexOf(held), 1);
    await stack.startService();
    // 500.00 against 100.00: sent as today's claim sends, and the provider refuses it.
    await stack.waitForStatus('out_1', 'FAILED', 30_000);
    const [p] = await stack.sql<{ attempt: number; sent: boolean; reason: string | null }>(
      `SELECT attempt, sent_at IS NOT NULL AS sent, reason FROM payout WHERE transfer_id = 'out_1'`,
    );
    assert.equal(p?.attempt, 1, 'sent once');
    assert.equal(p?.sent, false, 'not by the funds-aware claim: the account is not held any more');
    const path = stack.eventsOf('out_1').map((e) => e.data.status);
    assert.deepEqual(path.slice(0, 3), ['RECEIVED', 'HELD_FOR_FUNDS', 'SUBMITTING']);
  });
});
