import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type BeneficiaryDetails,
  type Diagnostics,
  type ProviderBeneficiaries,
  type ProviderBeneficiary,
  type ProviderResult,
  type Routed,
} from '#provider-client';
import { differingFields, maskBeneficiary } from './beneficiary-decisions.js';
import { ManageBeneficiaries } from './manage-beneficiaries.js';

const d = (code?: string): Diagnostics => ({
  endpoint: 'createBeneficiaryV2',
  requestId: 'r',
  sent: true,
  attempts: 1,
  durationMs: 1,
  ...(code ? { evidence: code } : {}),
});
const ok = <D>(data: D): ProviderResult<D> => ({ outcome: 'success', data, diagnostics: d() });
const failed = (
  kind: 'duplicate' | 'not-found' | 'invalid-request',
  code?: string,
): ProviderResult<never> => ({
  outcome: 'failed',
  kind,
  reason: kind,
  diagnostics: d(code),
});
const unknown: ProviderResult<never> = { outcome: 'unknown', reason: 'timeout', diagnostics: d() };

const asked: BeneficiaryDetails = {
  beneId: 'b1',
  name: 'Asha Rao',
  bankAccount: '026291800001191',
  ifsc: 'YESB0000262',
  phone: '9876543210',
  email: 'asha@example.com',
};
const registered: ProviderBeneficiary = {
  ...asked,
  name: 'ASHA  RAO',
  phone: '+919876543210',
  email: 'Asha@Example.com',
  status: 'VERIFIED',
};

type Calls = {
  create?: ProviderResult<ProviderBeneficiary>;
  get?: ProviderResult<ProviderBeneficiary>[];
  byAccount?: ProviderResult<ProviderBeneficiary>;
  remove?: ProviderResult<{ removed: true }>;
  /** The connector's word that the same account + IFSC exists under another id. */
  sameAccountExists?: true;
};

/** A strict fake: a call the test did not set up fails the test. */
function connector(c: Calls): { conn: ProviderBeneficiaries; log: string[] } {
  const log: string[] = [];
  const routed = <D>(r: ProviderResult<D> | undefined, name: string): Promise<Routed<D>> => {
    log.push(name);
    if (!r) throw new Error(`unexpected call: ${name}`);
    const same = name === 'create' && c.sameAccountExists ? { sameAccountExists: true as const } : {};
    return Promise.resolve({ generation: 'v2', result: r, ...same });
  };
  const gets = [...(c.get ?? [])];
  const conn = {
    generationOf: () => 'v2',
    create: () => routed(c.create, 'create'),
    get: () => routed(gets.shift(), 'get'),
    findByAccount: () => routed(c.byAccount, 'findByAccount'),
    remove: () => routed(c.remove, 'remove'),
  } as unknown as ProviderBeneficiaries;
  return { conn, log };
}

describe('ManageBeneficiaries', () => {
  it('created: the beneficiary comes back masked', async () => {
    const { conn } = connector({ create: ok(registered) });
    const a = await new ManageBeneficiaries(conn).create('acc', asked);
    assert.ok(a.ok);
    assert.equal(a.result, 'created');
    assert.equal(a.beneficiary?.bankAccount, 'XXXXXXXXXXX1191');
    assert.doesNotMatch(JSON.stringify(a), /026291800001191|9876543210|asha@/);
  });
  it('409 on the id with the same details (as the provider normalised them): exists, after one get', async () => {
    const { conn, log } = connector({
      create: failed('duplicate', 'beneficiary_id_already_exists'),
      get: [ok(registered)],
    });
    const a = await new ManageBeneficiaries(conn).create('acc', asked);
    assert.deepEqual([a.ok, a.ok && a.result], [true, 'exists']);
    assert.deepEqual(log, ['create', 'get']);
  });
  it('409 on the id with other details: a conflict naming the fields, never their values', async () => {
    const { conn } = connector({
      create: failed('duplicate', 'beneficiary_id_already_exists'),
      get: [ok({ ...registered, bankAccount: '999988887777' })],
    });
    const a = await new ManageBeneficiaries(conn).create('acc', asked);
    assert.equal(a.ok ? '' : a.code, 'conflict');
    assert.match(a.ok ? '' : a.message, /bankAccount/);
    assert.doesNotMatch(JSON.stringify(a), /999988887777|026291800001191/);
  });
  it('409 on the account (beneficiary_already_exists): read by account; another id is a conflict', async () => {
    const { conn, log } = connector({
      create: failed('duplicate', 'beneficiary_already_exists'),
      sameAccountExists: true,
      byAccount: ok({ ...registered, beneId: 'other' }),
    });
    const a = await new ManageBeneficiaries(conn).create('acc', asked);
    assert.equal(a.ok ? '' : a.code, 'conflict');
    assert.match(a.ok ? '' : a.message, /other/);
    assert.deepEqual(log, ['create', 'findByAccount']);
  });
  it('an unclear create is checked: found with the same details is exists, not found is unknown', async () => {
    let { conn } = connector({ create: unknown, get: [ok(registered)] });
    let a = await new ManageBeneficiaries(conn).create('acc', asked);
    assert.equal(a.ok && a.result, 'exists');
    ({ conn } = connector({ create: unknown, get: [failed('not-found')] }));
    a = await new ManageBeneficiaries(conn).create('acc', asked);
    assert.equal(a.ok ? '' : a.code, 'unknown');
  });
  it('a refusal is not checked: invalid, with the provider code', async () => {
    const { conn, log } = connector({ create: failed('invalid-request', 'bank_ifsc_invalid') });
    const a = await new ManageBeneficiaries(conn).create('acc', asked);
    assert.deepEqual([a.ok ? '' : a.code, a.ok ? '' : a.providerCode], ['invalid', 'bank_ifsc_invalid']);
    assert.deepEqual(log, ['create']);
  });
  it('delete: deleted; not found is absent (a retried delete is safe); unclear then gone is deleted', async () => {
    let { conn } = connector({ remove: ok({ removed: true }) });
    assert.equal((await new ManageBeneficiaries(conn).remove('acc', 'b1')).ok, true);
    ({ conn } = connector({ remove: failed('not-found') }));
    const absent = await new ManageBeneficiaries(conn).remove('acc', 'b1');
    assert.equal(absent.ok && absent.result, 'absent');
    ({ conn } = connector({ remove: unknown, get: [failed('not-found')] }));
    const gone = await new ManageBeneficiaries(conn).remove('acc', 'b1');
    assert.equal(gone.ok && gone.result, 'deleted');
    ({ conn } = connector({ remove: unknown, get: [ok(registered)] }));
    const still = await new ManageBeneficiaries(conn).remove('acc', 'b1');
    assert.equal(still.ok ? '' : still.code, 'unknown');
  });
  it('get: found (masked) or not_found', async () => {
    let { conn } = connector({ get: [ok(registered)] });
    const f = await new ManageBeneficiaries(conn).get('acc', 'b1');
    assert.equal(f.ok && f.beneficiary?.phone, '***********10');
    ({ conn } = connector({ get: [failed('not-found')] }));
    const n = await new ManageBeneficiaries(conn).get('acc', 'b1');
    assert.equal(n.ok ? '' : n.code, 'not_found');
  });
});

describe('differingFields / maskBeneficiary', () => {
  it('compares only what was asked, as the provider normalises it', () => {
    assert.deepEqual(differingFields(asked, registered), []);
    assert.deepEqual(
      differingFields({ beneId: 'b1', name: 'Asha Rao' }, { beneId: 'b1', name: 'asha rao' }),
      [],
    );
    assert.deepEqual(differingFields({ ...asked, vpa: 'a@upi' }, registered), ['vpa']);
  });
  it('masks account, VPA, phone and email', () => {
    const m = maskBeneficiary({ ...registered, vpa: 'success@upi' });
    assert.deepEqual([m.bankAccount, m.vpa, m.email], ['XXXXXXXXXXX1191', 'su***@upi', 'A***@Example.com']);
  });
});
