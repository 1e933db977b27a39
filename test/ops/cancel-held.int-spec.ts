import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, operatorsEnv, startStack, type Stack } from '#test-support';

const VIEWER = 'cancel-held-viewer-token-0123456789ab';
const OPERATOR = 'cancel-held-operator-token-0123456789';
const OPERATORS = operatorsEnv([
  { id: 'vera', role: 'viewer', token: VIEWER },
  { id: 'otto', role: 'operator', token: OPERATOR },
]);

// Issue 32: a payout held for funds was never sent, so one operator may cancel it (finance will not
// fund it); it ends REJECTED through the ledger (event, history with the operator), and nothing else
// can be cancelled this way.
describe('cancel a payout held for funds (real Postgres, Kafka, the service)', () => {
  let stack: Stack;
  let url: string;

  const post = async (path: string, token?: string) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, text };
  };

  before(async () => {
    stack = await startStack({
      // No executor: nothing but the operator moves the held payout.
      env: { OPS_OPERATORS: OPERATORS, SERVICE_ROLES: 'queries,relay' },
    });
    for (const [id, status] of [
      ['held_1', 'HELD_FOR_FUNDS'],
      ['held_2', 'HELD_FOR_FUNDS'],
      ['waiting_1', 'RECEIVED'],
      ['sent_1', 'PENDING'],
    ] as const)
      await stack.sql(
        `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, held_since)
         VALUES ('default', $1, 'standard_transfer', 'h', '{}', '75000.00', $2,
                 CASE WHEN $2 = 'HELD_FOR_FUNDS' THEN now() END)`,
        [id, status],
      );
    url = (await stack.startService()).url;
  });
  after(async () => {
    await stack?.close();
  });

  it('an operator cancels a held payout: REJECTED, cancelled_while_held, published, with who did it', async () => {
    const r = await post('/ops/payouts/default/held_1/cancel-hold', OPERATOR);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['status'], 'REJECTED');
    assert.equal(r.body['reason'], 'cancelled_while_held');

    const published = await eventually(
      () => stack.eventsOf('held_1').find((e) => e.data.status === 'REJECTED'),
      { what: 'the rejected event of held_1' },
    );
    assert.equal(published.type, 'payouts.payout.rejected');
    assert.equal(published.data.reason, 'cancelled_while_held');

    const history = await stack.sql<{
      from_status: string;
      to_status: string;
      cause: string;
      operator_id: string;
    }>(
      `SELECT from_status, to_status, cause, operator_id FROM state_history
        WHERE subject = 'payout' AND transfer_id = 'held_1' ORDER BY id`,
    );
    assert.deepEqual(history.at(-1), {
      from_status: 'HELD_FOR_FUNDS',
      to_status: 'REJECTED',
      cause: 'operator',
      operator_id: 'otto',
    });
    const actions = await stack.sql<{ operator_id: string; result: string }>(
      `SELECT operator_id, result FROM operator_action WHERE action = 'cancel_held' AND transfer_id = 'held_1'`,
    );
    assert.deepEqual(actions, [{ operator_id: 'otto', result: 'cancelled' }]);
  });

  it('refuses what is not held (409 not_held, recorded), a viewer (403), an unknown payout (404)', async () => {
    for (const id of ['held_1', 'waiting_1', 'sent_1']) {
      const r = await post(`/ops/payouts/default/${id}/cancel-hold`, OPERATOR);
      assert.equal(r.status, 409, `${id}: ${r.text}`);
      assert.equal(r.body['code'], 'not_held', id);
    }
    const [sent] = await stack.sql<{ status: string }>(
      `SELECT status FROM payout WHERE transfer_id = 'sent_1'`,
    );
    assert.equal(sent?.status, 'PENDING', 'a sent payout is never cancelled here');
    const refused = await stack.sql<{ result: string }>(
      `SELECT result FROM operator_action WHERE action = 'cancel_held' AND transfer_id = 'waiting_1'`,
    );
    assert.deepEqual(refused, [{ result: 'not_held' }]);

    const viewer = await post('/ops/payouts/default/held_2/cancel-hold', VIEWER);
    assert.equal(viewer.status, 403, viewer.text);
    const [held] = await stack.sql<{ status: string }>(
      `SELECT status FROM payout WHERE transfer_id = 'held_2'`,
    );
    assert.equal(held?.status, 'HELD_FOR_FUNDS');
    assert.equal((await post('/ops/payouts/default/no_such/cancel-hold', OPERATOR)).status, 404);
    assert.equal((await post('/ops/payouts/default/held_2/cancel-hold')).status, 401);
  });
});
