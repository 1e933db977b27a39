import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QUERY_EXAMPLES, replyProblems, type QueryReply } from '#contracts';
import { eventually, startStack, type Stack } from '#test-support';

const ACCOUNT = '026291800001191';
const V2_ACCOUNT = '000100289877623';
const PHONE = '9876543210';
const EMAIL = 'asha.rao@example.com';

const V2_CLIENT = { clientId: 'v2_client_id', clientSecret: 'v2_client_secret' };

/**
 * Beneficiary management over Kafka, end to end: the request on payouts.queries, the provider
 * sandbox over HTTP (v1 endpoints for the primary account, v2 /payout/beneficiary for a v2
 * account, a sandbox merchant of its own: accounts never share a client secret, issue 30), the
 * reply on the reply topic; and the history of a v2 account read from the ledger.
 */
describe('beneficiaries on v1 and v2 accounts, over Kafka', () => {
  let stack: Stack;
  let n = 0;
  before(async () => {
    stack = await startStack({
      sandbox: { merchants: [V2_CLIENT] },
      env: {
        // Every provider call is logged (with the provider's scrubbed message): none may hold personal data.
        LOG_LEVEL: 'debug',
        PROVIDER_ACCOUNTS: JSON.stringify([
          {
            accountId: 'acc_v2',
            ...V2_CLIENT,
            api: 'v2',
          },
        ]),
      },
    });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  async function ask(q: { type: string; accountId?: string; data: object }): Promise<QueryReply> {
    const queryId = `bq-${++n}`;
    await stack.query({ ...q, queryId });
    const r = await eventually(() => stack.replies.find((x) => x.queryId === queryId), {
      what: `reply ${queryId}`,
    });
    assert.equal(replyProblems(r), undefined, 'the reply matches its schema');
    return r;
  }

  const details = (beneId: string, bankAccount = ACCOUNT) => ({
    beneId,
    name: 'Asha Rao',
    bankAccount,
    ifsc: 'YESB0000262',
    email: EMAIL,
    phone: PHONE,
    address1: '12 MG Road',
  });

  it('the contract examples work against the sandbox (create, get, delete on the primary v1 account)', async () => {
    for (const type of ['beneficiary.create', 'query.beneficiary', 'beneficiary.delete']) {
      const ex = QUERY_EXAMPLES.find((q) => q.type === type);
      assert.ok(ex);
      const r = await ask(ex);
      assert.equal(r.ok, true, `${type}: ${JSON.stringify(r.error)}`);
      assert.equal(r.generation, 'v1');
    }
  });

  it('v1: create, duplicate create (same details: exists; other details: conflict), get, delete twice', async () => {
    const created = await ask({ type: 'beneficiary.create', data: details('BENEV1') });
    assert.deepEqual([created.ok, created.generation, created.data?.['result']], [true, 'v1', 'created']);
    const again = await ask({ type: 'beneficiary.create', data: details('BENEV1') });
    assert.deepEqual([again.ok, again.data?.['result']], [true, 'exists'], JSON.stringify(again));
    const other = await ask({ type: 'beneficiary.create', data: details('BENEV1', '99887766554433') });
    assert.deepEqual([other.ok, other.error?.code], [false, 'conflict']);
    assert.match(other.error?.message ?? '', /bankAccount/);
    const got = await ask({ type: 'query.beneficiary', data: { beneId: 'BENEV1' } });
    const b = got.data?.['beneficiary'] as Record<string, string>;
    assert.equal(b['bankAccount'], 'XXXXXXXXXXX1191');
    assert.equal(b['name'], 'Asha Rao');
    const del = await ask({ type: 'beneficiary.delete', data: { beneId: 'BENEV1' } });
    assert.deepEqual([del.ok, del.data?.['result']], [true, 'deleted']);
    // A delete whose reply was lost, asked again: safe, and it says the beneficiary is gone.
    const twice = await ask({ type: 'beneficiary.delete', data: { beneId: 'BENEV1' } });
    assert.deepEqual([twice.ok, twice.data?.['result']], [true, 'absent']);
    const gone = await ask({ type: 'query.beneficiary', data: { beneId: 'BENEV1' } });
    assert.deepEqual([gone.ok, gone.error?.code], [false, 'not_found']);
  });

  it('v2: create (201), duplicate id and duplicate account, get, bene_id by account + IFSC, delete', async () => {
    const created = await ask({
      type: 'beneficiary.create',
      accountId: 'acc_v2',
      data: details('BENEV2', V2_ACCOUNT),
    });
    assert.deepEqual([created.ok, created.generation, created.data?.['result']], [true, 'v2', 'created']);
    assert.equal((created.data?.['beneficiary'] as Record<string, string>)['status'], 'VERIFIED');
    const again = await ask({
      type: 'beneficiary.create',
      accountId: 'acc_v2',
      data: details('BENEV2', V2_ACCOUNT),
    });
    assert.deepEqual([again.ok, again.data?.['result']], [true, 'exists'], JSON.stringify(again));
    // The same account and IFSC under another id: 409 beneficiary_already_exists, read by account.
    const sameAccount = await ask({
      type: 'beneficiary.create',
      accountId: 'acc_v2',
      data: details('BENEOTHER', V2_ACCOUNT),
    });
    assert.deepEqual([sameAccount.ok, sameAccount.error?.code], [false, 'conflict']);
    assert.match(sameAccount.error?.message ?? '', /BENEV2/);
    const byAccount = await ask({
      type: 'query.bene_id',
      accountId: 'acc_v2',
      data: { bankAccount: V2_ACCOUNT, ifsc: 'YESB0000262' },
    });
    assert.deepEqual(
      [byAccount.ok, byAccount.generation, byAccount.data?.['beneId']],
      [true, 'v2', 'BENEV2'],
    );
    const got = await ask({ type: 'query.beneficiary', accountId: 'acc_v2', data: { beneId: 'BENEV2' } });
    assert.equal((got.data?.['beneficiary'] as Record<string, string>)['phone'], '********10');
    const del = await ask({ type: 'beneficiary.delete', accountId: 'acc_v2', data: { beneId: 'BENEV2' } });
    assert.deepEqual([del.ok, del.generation, del.data?.['result']], [true, 'v2', 'deleted']);
    const twice = await ask({ type: 'beneficiary.delete', accountId: 'acc_v2', data: { beneId: 'BENEV2' } });
    assert.deepEqual([twice.ok, twice.data?.['result']], [true, 'absent']);
  });

  it('a create whose answer was lost (applied at the provider) is checked: exists, and asking again is the same', async () => {
    await stack.sandboxCall('POST', `/__sandbox/faults?clientId=${V2_CLIENT.clientId}`, {
      endpoint: 'createBeneficiaryV2',
      loseAnswer: 'reset',
      times: 1,
    });
    const lost = await ask({
      type: 'beneficiary.create',
      accountId: 'acc_v2',
      data: details('BENELOST', '5566778899'),
    });
    assert.deepEqual([lost.ok, lost.data?.['result']], [true, 'exists'], JSON.stringify(lost));
    const retried = await ask({
      type: 'beneficiary.create',
      accountId: 'acc_v2',
      data: details('BENELOST', '5566778899'),
    });
    assert.deepEqual([retried.ok, retried.data?.['result']], [true, 'exists']);
    // A delete whose answer was lost: checked, it is gone.
    await stack.sandboxCall('POST', `/__sandbox/faults?clientId=${V2_CLIENT.clientId}`, {
      endpoint: 'deleteBeneficiaryV2',
      loseAnswer: 'reset',
      times: 1,
    });
    const del = await ask({ type: 'beneficiary.delete', accountId: 'acc_v2', data: { beneId: 'BENELOST' } });
    assert.deepEqual([del.ok, del.data?.['result']], [true, 'deleted'], JSON.stringify(del));
  });

  it('a v1 account refuses a create without the contact fields v1 needs, without calling the provider', async () => {
    const r = await ask({
      type: 'beneficiary.create',
      data: { beneId: 'BENEBARE', name: 'Asha Rao', vpa: 'success@upi' },
    });
    assert.deepEqual([r.ok, r.error?.code], [false, 'invalid']);
  });

  it('bene_history on a v2 account comes from the ledger, paged newest first as v1 pages', async () => {
    // On both merchants: the v2 account pays it, and so does the primary (another account's history).
    await ask({ type: 'beneficiary.create', accountId: 'acc_v2', data: details('BENEHIST') });
    await stack.registerBeneficiary({ beneId: 'BENEHIST', bankAccount: ACCOUNT, ifsc: 'YESB0000262' });
    for (const [i, amount] of ['101.50', '202', '303.25'].entries()) {
      await stack.send({
        type: 'payout.standard_transfer',
        accountId: 'acc_v2',
        data: { transferId: `hist_${i}`, beneId: 'BENEHIST', amount, transferMode: 'imps' },
      });
      await eventually(() => stack.eventsOf(`hist_${i}`)[0], { what: `hist_${i} accepted` });
    }
    // Another account's payout to the same beneId is not this account's history.
    await stack.send({
      type: 'payout.standard_transfer',
      data: { transferId: 'hist_v1', beneId: 'BENEHIST', amount: '5' },
    });
    await eventually(() => stack.eventsOf('hist_v1')[0], { what: 'hist_v1 accepted' });
    const first = await ask({
      type: 'query.bene_history',
      accountId: 'acc_v2',
      data: { beneId: 'BENEHIST', perPage: 2 },
    });
    assert.equal(first.ok, true, JSON.stringify(first.error));
    assert.equal(first.generation, 'v2');
    const items = first.data?.['transfers'] as Array<Record<string, string>>;
    assert.deepEqual(
      items.map((t) => [t['amount'], t['mode'], t['beneId']]),
      [
        ['303.25', 'IMPS', 'BENEHIST'],
        ['202.00', 'IMPS', 'BENEHIST'],
      ],
    );
    for (const t of items) {
      assert.match(t['transferDate'] ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.ok(['SUCCESS', 'PENDING', 'FAILED'].includes(t['status'] ?? ''), t['status']);
    }
    const second = await ask({
      type: 'query.bene_history',
      accountId: 'acc_v2',
      data: { beneId: 'BENEHIST', perPage: 2, page: 2 },
    });
    assert.deepEqual(
      (second.data?.['transfers'] as Array<Record<string, string>>).map((t) => t['amount']),
      ['101.50'],
    );
    const before = await ask({
      type: 'query.bene_history',
      accountId: 'acc_v2',
      data: { beneId: 'BENEHIST', startDate: '2020-01-01', endDate: '2020-01-31' },
    });
    assert.deepEqual(before.data?.['transfers'], []);
  });

  it('no full account number, phone or email in any log line', () => {
    const logs = stack.logLines.join('\n');
    for (const endpoint of [
      'addBeneficiary',
      'createBeneficiaryV2',
      'deleteBeneficiaryV2',
      'getBeneficiaryV2',
    ])
      assert.ok(logs.includes(endpoint), `the ${endpoint} calls were logged`);
    for (const secret of [ACCOUNT, V2_ACCOUNT, '99887766554433', '5566778899', PHONE, EMAIL]) {
      assert.equal(logs.includes(secret), false, `a log line holds ${secret.slice(0, 3)}…`);
    }
  });
});
