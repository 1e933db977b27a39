import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually, operatorsEnv, startStack, type Stack } from '#test-support';

const ACCOUNT = 'default';
const ALICE = 'approval-alice-token-0123456789abcdef';
const BOB = 'approval-bob-token-0123456789abcdef0';
const OLGA = 'approval-olga-token-0123456789abcdef';
const OPERATORS = operatorsEnv([
  { id: 'alice', role: 'approver', token: ALICE },
  { id: 'bob', role: 'approver', token: BOB },
  { id: 'olga', role: 'operator', token: OLGA },
]);
/** One approver from 1,000.00, two from 5,000.00; a batch from a total of 500.00 waits whole. */
const POLICY = JSON.stringify([
  {
    accountId: ACCOUNT,
    rules: [
      { rule: 'amount_at_least', amount: '1000.00' },
      { rule: 'amount_at_least', amount: '5000.00', approvers: 2 },
      { rule: 'batch_total_at_least', amount: '500.00' },
    ],
  },
]);

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const standard = (transferId: string, amount: string) => ({
  type: 'payout.standard_transfer',
  data: { transferId, beneId: 'APPRB1', amount, transferMode: 'imps' },
});

/** What the provider received for an id: each initiation (the sandbox's own request log). */
async function initiations(stack: Stack, id: string): Promise<number> {
  const r = (await stack.sandboxCall('GET', `/__sandbox/received?transferId=${id}`)) as {
    initiations: unknown[];
  };
  return r.initiations.length;
}

// Approval before sending (issue 30), end to end: Kafka in, the ledger, the ops API, the sandbox.
describe('approval before sending', () => {
  let stack: Stack;
  let url: string;

  const call = async (method: string, path: string, token: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const decide = (
    token: string,
    id: string,
    decision: 'approve' | 'reject',
    kind = 'payouts',
    note?: string,
  ) => call('POST', `/ops/approvals/${kind}/${ACCOUNT}/${id}/${decision}`, token, note ? { note } : {});
  const types = (id: string) =>
    stack.eventsOf(id).map((e) => e.type.replace(/^payouts\.(payout|batch)\./, ''));

  before(async () => {
    stack = await startStack({
      env: { OPS_OPERATORS: OPERATORS, APPROVAL_POLICIES: POLICY, APPROVAL_EXPIRY_POLL_MS: '200' },
    });
    url = (await stack.startService()).url;
    await stack.registerBeneficiary({
      beneId: 'APPRB1',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('a payout over the threshold waits; the provider never sees it until a person approves it; then it is paid', async () => {
    await stack.send(standard('ap_held_1', '1500.00'));
    const held = await stack.waitForStatus('ap_held_1', 'AWAITING_APPROVAL');
    assert.equal(held.type, 'payouts.payout.awaiting_approval');
    assert.equal(held.data.reason, 'approval_required');
    // The executor polls every 50 ms: a second is twenty chances to send it.
    await sleep(1_000);
    assert.equal(await initiations(stack, 'ap_held_1'), 0, 'the provider never saw it');

    const listed = await call('GET', '/ops/approvals', OLGA);
    assert.equal(listed.status, 200);
    const item = (listed.body['items'] as Array<Record<string, unknown>>).find(
      (i) => i['transferId'] === 'ap_held_1',
    );
    assert.ok(item, 'listed as waiting');
    assert.deepEqual(item['rules'], [{ rule: 'amount_at_least', detail: 'amount 1500.00 >= 1000.00' }]);
    assert.match(String(item['policyVersion']), /^sha256:[0-9a-f]{16}$/);
    assert.equal(item['approvalsNeeded'], 1);

    // A token (automation) never decides, even one of the approver role.
    const issued = await call('POST', '/ops/tokens', ALICE, { name: 'ci-bot', role: 'approver' });
    assert.equal(issued.status, 201);
    const byToken = await decide(String(issued.body['token']), 'ap_held_1', 'approve');
    assert.equal(byToken.status, 403);
    assert.match(String(byToken.body['detail']), /token cannot approve/);
    // An operator may not decide what asks for an approver.
    assert.equal((await decide(OLGA, 'ap_held_1', 'approve')).status, 403);
    assert.equal(await initiations(stack, 'ap_held_1'), 0);

    const approved = await decide(ALICE, 'ap_held_1', 'approve', 'payouts', 'checked invoice 1500');
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body['state'], 'approved');
    await stack.waitForStatus('ap_held_1', 'SUCCESS');
    assert.deepEqual(types('ap_held_1'), [
      'accepted',
      'awaiting_approval',
      'approved',
      'submitting',
      'succeeded',
    ]);
    assert.equal(await initiations(stack, 'ap_held_1'), 1);
    assert.equal(
      (await decide(BOB, 'ap_held_1', 'approve')).body['code'],
      'proposal_decided',
      'decided once',
    );

    // The durable history names who decided.
    const timeline = await call('GET', `/ops/payouts/${ACCOUNT}/ap_held_1/timeline`, OLGA);
    const history = timeline.body['history'] as Array<Record<string, unknown>>;
    const release = history.find((h) => h['from'] === 'AWAITING_APPROVAL');
    assert.equal(release?.['to'], 'RECEIVED');
    assert.equal(release?.['operatorId'], 'alice');
    const actions = timeline.body['actions'] as Array<Record<string, unknown>>;
    assert.ok(
      actions.some(
        (a) => a['operatorId'] === 'alice' && a['action'] === 'approve' && a['result'] === 'approved',
      ),
    );
    assert.ok(actions.some((a) => a['via'] === 'token:ci-bot' && a['result'] === 'forbidden'));
  });

  it('two approvers must be two different people', async () => {
    await stack.send(standard('ap_two_1', '7500.00'));
    await stack.waitForStatus('ap_two_1', 'AWAITING_APPROVAL');
    const first = await decide(ALICE, 'ap_two_1', 'approve');
    assert.equal(first.status, 200);
    assert.equal(first.body['state'], 'waiting');
    assert.equal(first.body['approvals'], 1);
    assert.equal(first.body['approvalsNeeded'], 2);
    const again = await decide(ALICE, 'ap_two_1', 'approve');
    assert.equal(again.status, 403, 'the same person twice is one approval');
    await sleep(500);
    assert.equal(await initiations(stack, 'ap_two_1'), 0);
    assert.equal((await decide(BOB, 'ap_two_1', 'approve')).body['state'], 'approved');
    await stack.waitForStatus('ap_two_1', 'SUCCESS');
    const [row] = await stack.sql<{ operator_id: string; approver_id: string }>(
      `SELECT operator_id, approver_id FROM state_history WHERE transfer_id = 'ap_two_1' AND from_status = 'AWAITING_APPROVAL'`,
    );
    assert.deepEqual(row, { operator_id: 'alice', approver_id: 'bob' });
  });

  it('a rejected payout ends REJECTED with the reason, and the provider never saw it', async () => {
    await stack.send(standard('ap_rej_1', '2000.00'));
    await stack.waitForStatus('ap_rej_1', 'AWAITING_APPROVAL');
    const r = await decide(BOB, 'ap_rej_1', 'reject', 'payouts', 'not an invoice we know');
    assert.equal(r.status, 200);
    assert.equal(r.body['state'], 'rejected');
    const rejected = await stack.waitForStatus('ap_rej_1', 'REJECTED');
    assert.equal(rejected.data.reason, 'approval_rejected');
    await sleep(500);
    assert.equal(await initiations(stack, 'ap_rej_1'), 0);
    assert.deepEqual(types('ap_rej_1'), ['accepted', 'awaiting_approval', 'rejected']);
  });

  it('an expired approval ends REJECTED (approval_expired); nothing was sent', async () => {
    await stack.send(standard('ap_exp_1', '3000.00'));
    await stack.waitForStatus('ap_exp_1', 'AWAITING_APPROVAL');
    await stack.sql(`UPDATE approval_hold SET expires_at = now() WHERE transfer_id = 'ap_exp_1'`);
    const rejected = await stack.waitForStatus('ap_exp_1', 'REJECTED');
    assert.equal(rejected.data.reason, 'approval_expired');
    assert.equal(await initiations(stack, 'ap_exp_1'), 0);
    assert.equal((await decide(ALICE, 'ap_exp_1', 'approve')).body['code'], 'proposal_decided');
  });

  it('a batch over the total waits whole, and is sent once approved as a whole', async () => {
    const entry = (transferId: string) => ({
      transferId,
      amount: '300.00',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
      name: 'Batch Person',
      phone: '9876543210',
    });
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'ap_batch_1',
        batchFormat: 'BANK_ACCOUNT',
        entries: [entry('apb_1'), entry('apb_2')],
      },
    });
    const held = await stack.waitForStatus('ap_batch_1', 'AWAITING_APPROVAL');
    assert.equal(held.type, 'payouts.batch.awaiting_approval');
    await sleep(1_500);
    assert.equal(await initiations(stack, 'ap_batch_1'), 0, 'the batch was not sent');
    const hold = await call('GET', `/ops/approvals/batches/${ACCOUNT}/ap_batch_1`, OLGA);
    assert.deepEqual(hold.body['rules'], [
      { rule: 'batch_total_at_least', detail: 'batch total 600.00 >= 500.00' },
    ]);
    assert.equal((await decide(ALICE, 'ap_batch_1', 'approve', 'batches')).body['state'], 'approved');
    await stack.waitForStatus('ap_batch_1', 'COMPLETED', 30_000);
    assert.equal(await initiations(stack, 'ap_batch_1'), 1);
    const [h] = await stack.sql<{ operator_id: string }>(
      `SELECT operator_id FROM state_history WHERE subject = 'batch' AND transfer_id = 'ap_batch_1' AND from_status = 'AWAITING_APPROVAL'`,
    );
    assert.equal(h?.operator_id, 'alice');
  });

  it('a payout no rule catches goes straight on', async () => {
    await stack.send(standard('ap_small_1', '999.99'));
    await stack.waitForStatus('ap_small_1', 'SUCCESS');
    assert.ok(!types('ap_small_1').includes('awaiting_approval'));
    assert.equal((await stack.sql(`SELECT 1 FROM approval_hold WHERE transfer_id = 'ap_small_1'`)).length, 0);
  });

  it('exports the waiting approvals and the age of the oldest', async () => {
    await stack.send(standard('ap_metric_1', '1200.00'));
    await stack.waitForStatus('ap_metric_1', 'AWAITING_APPROVAL');
    await eventually(async () => {
      const text = await (await fetch(`${url}/metrics`)).text();
      return (
        /payouts_approvals_waiting 1\b/.test(text) && /payouts_approvals_oldest_age_seconds \d/.test(text)
      );
    });
  });
});

describe('approval before sending, with no policy', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    await stack.startService();
    await stack.registerBeneficiary({
      beneId: 'APPRB1',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('nothing waits, whatever the amount', async () => {
    await stack.send(standard('ap_none_1', '25000.00'));
    await stack.waitForStatus('ap_none_1', 'SUCCESS');
    assert.ok(!stack.eventsOf('ap_none_1').some((e) => e.data.status === 'AWAITING_APPROVAL'));
    assert.equal((await stack.sql(`SELECT 1 FROM approval_hold`)).length, 0);
  });
});

describe('approval before sending: beneficiary rules and the daily sum', () => {
  let stack: Stack;
  let url: string;
  const OSCAR = 'approval-oscar-token-0123456789abcde';
  /** Approves a person's beneficiary change (the second person of issue 30's defect 2). */
  const AVA = 'approval-ava-token-0123456789abcdef01';
  const rules = [
    { rule: 'first_payout_to_beneficiary', role: 'operator' },
    { rule: 'beneficiary_changed_within', period: '1h', role: 'operator' },
    { rule: 'daily_sum_above', scope: 'account', cap: '100.00', role: 'operator' },
  ];
  const call = async (method: string, path: string, token: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const to = (transferId: string, beneId: string, amount: string) => ({
    type: 'payout.standard_transfer',
    data: { transferId, beneId, amount, transferMode: 'imps' },
  });
  const holdOf = async (id: string) =>
    (await call('GET', `/ops/approvals/payouts/${ACCOUNT}/${id}`, OLGA)).body as {
      rules: Array<{ rule: string }>;
      excluded: string[];
    };
  const approve = (token: string, id: string) =>
    call('POST', `/ops/approvals/payouts/${ACCOUNT}/${id}/approve`, token);

  before(async () => {
    stack = await startStack({
      env: {
        OPS_OPERATORS: operatorsEnv([
          { id: 'olga', role: 'operator', token: OLGA },
          { id: 'oscar', role: 'operator', token: OSCAR },
          { id: 'ava', role: 'approver', token: AVA },
        ]),
        APPROVAL_POLICIES: JSON.stringify([{ accountId: ACCOUNT, rules }]),
      },
    });
    url = (await stack.startService()).url;
    // Registered at the provider directly, long ago as far as this service knows.
    await stack.registerBeneficiary({ beneId: 'OLDB1', bankAccount: '026291800001191', ifsc: 'YESB0000262' });
  });
  after(async () => {
    await stack?.close();
  });

  it('the first payout to a beneficiary waits; once one is through, the next does not', async () => {
    await stack.send(to('apf_1', 'OLDB1', '10.00'));
    await stack.waitForStatus('apf_1', 'AWAITING_APPROVAL');
    assert.deepEqual(
      (await holdOf('apf_1')).rules.map((r) => r.rule),
      ['first_payout_to_beneficiary'],
    );
    assert.equal((await approve(OSCAR, 'apf_1')).status, 200);
    await stack.waitForStatus('apf_1', 'SUCCESS');
    await stack.send(to('apf_2', 'OLDB1', '10.00'));
    await stack.waitForStatus('apf_2', 'SUCCESS');
    assert.ok(!stack.eventsOf('apf_2').some((e) => e.data.status === 'AWAITING_APPROVAL'));
  });

  it('a beneficiary changed by a person (ops) or a Kafka request: its payouts wait, and whoever changed it may not approve', async () => {
    const bene = {
      beneId: 'CHGB1',
      name: 'Asha Rao',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
      email: 'asha@example.com',
      phone: '9876543210',
      address1: '12 MG Road',
    };
    // Olga proposes the registration, Ava approves it: recorded as Olga's change once it is made.
    const proposed = await call('POST', `/ops/beneficiaries/${ACCOUNT}`, OLGA, bene);
    assert.equal(proposed.status, 202, JSON.stringify(proposed.body));
    const made = await call('POST', `/ops/beneficiary-proposals/${String(proposed.body['id'])}/approve`, AVA);
    assert.equal(made.status, 200, JSON.stringify(made.body));
    await stack.query({ type: 'beneficiary.create', queryId: 'apq_1', data: { ...bene, beneId: 'CHGB2' } });
    await eventually(() => stack.replies.find((r) => r.queryId === 'apq_1'));
    const changes = await stack.sql<{ bene_id: string; source: string; operator_id: string | null }>(
      `SELECT bene_id, source, operator_id FROM beneficiary_change ORDER BY id`,
    );
    assert.deepEqual(changes, [
      { bene_id: 'CHGB1', source: 'ops', operator_id: 'olga' },
      { bene_id: 'CHGB2', source: 'queries', operator_id: null },
    ]);

    await stack.send(to('apc_1', 'CHGB1', '10.00'));
    await stack.waitForStatus('apc_1', 'AWAITING_APPROVAL');
    const hold = await holdOf('apc_1');
    assert.ok(hold.rules.some((r) => r.rule === 'beneficiary_changed_within'));
    assert.deepEqual(hold.excluded, ['olga']);
    const self = await approve(OLGA, 'apc_1');
    assert.equal(self.status, 403);
    assert.match(String(self.body['detail']), /you changed a beneficiary/);
    assert.equal((await approve(OSCAR, 'apc_1')).body['state'], 'approved');
    // Sent: the sandbox refuses a payout to a beneficiary added less than 30 minutes ago, as the provider does.
    await stack.waitForStatus('apc_1', 'SUBMITTING');

    await stack.send(to('apc_2', 'CHGB2', '10.00'));
    await stack.waitForStatus('apc_2', 'AWAITING_APPROVAL');
    assert.ok((await holdOf('apc_2')).rules.some((r) => r.rule === 'beneficiary_changed_within'));
  });

  it("the account's daily sum above its cap holds what goes over it", async () => {
    // So far today: 10 + 10 + 10 + 10 = 40.00; 50.00 more stays at 90.00, 20.00 more is over 100.00.
    await stack.send(to('apd_1', 'OLDB1', '50.00'));
    // Not held: sent (the sandbox then refuses it, a beneficiary was added minutes ago; the day's
    // sum counts what was admitted, which errs on the side of a hold).
    await stack.waitForStatus('apd_1', 'SUBMITTING');
    assert.ok(!stack.eventsOf('apd_1').some((e) => e.data.status === 'AWAITING_APPROVAL'));
    await stack.send(to('apd_2', 'OLDB1', '20.00'));
    await stack.waitForStatus('apd_2', 'AWAITING_APPROVAL');
    assert.deepEqual(
      (await holdOf('apd_2')).rules.map((r) => r.rule),
      ['daily_sum_above'],
    );
  });
});
