import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { operatorsEnv, startStack, type Stack } from '#test-support';

const OLGA = 'ops-bene-operator-token-0123456789';
const VIC = 'ops-bene-viewer-token-0123456789ab';
const ABE = 'ops-bene-approver-token-012345678';
const ACCOUNT = '026291800001191';
const V2_ACCOUNT = '000100289877623';
const PHONE = '9876543210';
const EMAIL = 'asha.rao@example.com';

// Beneficiary operations of the operations API over real HTTP, against the whole stack and the
// provider sandbox: a v1 primary account and a v2 account. A change is proposed by one person and
// approved by another (issue 30; test/ops/four-eyes-humans walks the refusals).
describe('operations API: beneficiaries', () => {
  let stack: Stack;
  let url: string;

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown>, text };
  };
  const texts: string[] = [];
  const seen = async (...a: Parameters<typeof call>) => {
    const r = await call(...a);
    texts.push(r.text);
    return r;
  };

  /** A change in two steps: olga proposes it (202), abe approves it (the provider's answer). */
  const changed = async (method: 'POST' | 'DELETE', path: string, body?: unknown) => {
    const p = await seen(method, path, OLGA, body);
    assert.equal(p.status, 202, p.text);
    return seen('POST', `/ops/beneficiary-proposals/${p.body['id'] as string}/approve`, ABE, {});
  };

  const details = (beneId: string, bankAccount = ACCOUNT) => ({
    beneId,
    name: 'Asha Rao',
    bankAccount,
    ifsc: 'YESB0000262',
    email: EMAIL,
    phone: PHONE,
    address1: '12 MG Road',
  });

  before(async () => {
    stack = await startStack({
      // acc_v2 is a merchant of its own: accounts never share a client secret (issue 30).
      sandbox: { merchants: [{ clientId: 'v2_client_id', clientSecret: 'v2_client_secret' }] },
      env: {
        OPS_OPERATORS: operatorsEnv([
          { id: 'olga', role: 'operator', token: OLGA },
          { id: 'vic', role: 'viewer', token: VIC },
          { id: 'abe', role: 'approver', token: ABE },
        ]),
        LOG_LEVEL: 'debug',
        PROVIDER_ACCOUNTS: JSON.stringify([
          {
            accountId: 'acc_v2',
            clientId: 'v2_client_id',
            clientSecret: 'v2_client_secret',
            api: 'v2',
          },
        ]),
      },
    });
    const app = await stack.startService();
    url = app.url;
  });
  after(async () => {
    await stack?.close();
  });

  it('v1 account: create, the same again (exists), other details (409), get, delete, delete again (absent)', async () => {
    const made = await changed('POST', '/ops/beneficiaries/default', details('OPSB1'));
    assert.equal(made.status, 200, made.text);
    assert.deepEqual([made.body['generation'], made.body['result']], ['v1', 'created']);
    assert.equal((made.body['beneficiary'] as Record<string, string>)['bankAccount'], 'XXXXXXXXXXX1191');
    const again = await changed('POST', '/ops/beneficiaries/default', details('OPSB1'));
    assert.deepEqual([again.status, again.body['result']], [200, 'exists']);
    const other = await changed('POST', '/ops/beneficiaries/default', details('OPSB1', '99887766554433'));
    assert.deepEqual([other.status, other.body['code']], [409, 'conflict']);
    const failed = await seen('GET', '/ops/beneficiary-proposals?state=failed', VIC);
    assert.deepEqual(
      (failed.body['items'] as Array<Record<string, unknown>>).map((x) => [x['beneId'], x['result']]),
      [['OPSB1', 'conflict']],
      'the refused change is kept with its answer',
    );
    const got = await seen('GET', '/ops/beneficiaries/default/OPSB1', VIC);
    assert.equal(got.status, 200, got.text);
    assert.equal((got.body['beneficiary'] as Record<string, string>)['phone'], '********10');
    const del = await changed('DELETE', '/ops/beneficiaries/default/OPSB1');
    assert.deepEqual([del.status, del.body['result']], [200, 'deleted']);
    const twice = await changed('DELETE', '/ops/beneficiaries/default/OPSB1');
    assert.deepEqual([twice.status, twice.body['result']], [200, 'absent']);
    const gone = await seen('GET', '/ops/beneficiaries/default/OPSB1', VIC);
    assert.equal(gone.status, 404);
  });

  it('v2 account: create, get, delete through /payout/beneficiary', async () => {
    const made = await changed('POST', '/ops/beneficiaries/acc_v2', details('OPSB2', V2_ACCOUNT));
    assert.deepEqual([made.status, made.body['generation'], made.body['result']], [200, 'v2', 'created']);
    const got = await seen('GET', '/ops/beneficiaries/acc_v2/OPSB2', VIC);
    assert.equal((got.body['beneficiary'] as Record<string, string>)['status'], 'VERIFIED');
    const del = await changed('DELETE', '/ops/beneficiaries/acc_v2/OPSB2');
    assert.deepEqual([del.body['generation'], del.body['result']], ['v2', 'deleted']);
  });

  it('a viewer may look up but not change; bad input is 400; an unknown account 404', async () => {
    const denied = await seen('POST', '/ops/beneficiaries/default', VIC, details('OPSB3'));
    assert.equal(denied.status, 403);
    const deniedDelete = await seen('DELETE', '/ops/beneficiaries/default/OPSB3', VIC);
    assert.equal(deniedDelete.status, 403);
    const bad = await seen('POST', '/ops/beneficiaries/default', OLGA, { beneId: 'OPSB3', name: 'Asha' });
    assert.deepEqual([bad.status, bad.body['code']], [400, 'invalid_input']);
    const noAccount = await seen('GET', '/ops/beneficiaries/nope/OPSB3', VIC);
    assert.equal(noAccount.status, 404);
  });

  it('every change is audited with both people, the account and the beneficiary id, never its details', async () => {
    const rows = await stack.sql<{
      operator_id: string;
      action: string;
      bene_id: string | null;
      result: string;
    }>(
      `SELECT operator_id, action, bene_id, result FROM operator_action WHERE action LIKE 'bene_%' ORDER BY id`,
    );
    const twice = (who: string, action: string, bene: string, result: string) => [
      `olga ${action} ${bene} proposed`,
      `${who} bene_approve ${bene} ${result}`,
    ];
    assert.deepEqual(
      rows.map((r) => `${r.operator_id} ${r.action} ${r.bene_id ?? '-'} ${r.result}`),
      [
        ...twice('abe', 'bene_create', 'OPSB1', 'created'),
        ...twice('abe', 'bene_create', 'OPSB1', 'exists'),
        ...twice('abe', 'bene_create', 'OPSB1', 'conflict'),
        ...twice('abe', 'bene_delete', 'OPSB1', 'deleted'),
        ...twice('abe', 'bene_delete', 'OPSB1', 'absent'),
        ...twice('abe', 'bene_create', 'OPSB2', 'created'),
        ...twice('abe', 'bene_delete', 'OPSB2', 'deleted'),
        'olga bene_create OPSB3 invalid_input',
      ],
    );
    const all = JSON.stringify(await stack.sql(`SELECT * FROM operator_action`));
    const proposals = JSON.stringify(await stack.sql(`SELECT * FROM beneficiary_proposal`));
    for (const secret of [ACCOUNT, V2_ACCOUNT, '99887766554433', PHONE, EMAIL]) {
      assert.equal(all.includes(secret), false, 'an audit row holds personal data');
      assert.equal(proposals.includes(secret), false, 'a proposal holds personal data in clear');
    }
  });

  it('no full account number, phone or email in an answer or a log line', () => {
    const logs = stack.logLines.join('\n');
    assert.ok(
      logs.includes('addBeneficiary') && logs.includes('createBeneficiaryV2'),
      'the calls were logged',
    );
    for (const secret of [ACCOUNT, V2_ACCOUNT, '99887766554433', PHONE, EMAIL]) {
      assert.equal(texts.join('\n').includes(secret), false, 'an answer holds personal data');
      assert.equal(logs.includes(secret), false, 'a log line holds personal data');
    }
  });
});
