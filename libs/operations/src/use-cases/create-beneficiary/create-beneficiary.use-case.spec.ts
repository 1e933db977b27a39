import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { type ManageBeneficiaries } from '#pipeline';
import { strictFake } from '#test-support';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { type OperatorActionEntry } from '../../operator-action.repository.js';
import { type Operator } from '../../operators.js';
import { parseCreateBeneficiary } from './create-beneficiary.command.js';
import { CreateBeneficiary } from './create-beneficiary.use-case.js';

const details = {
  beneId: 'OPSB1',
  name: 'Asha Rao',
  bankAccount: '026291800001191',
  ifsc: 'YESB0000262',
  email: 'asha@example.com',
  phone: '9876543210',
  address1: '12 MG Road',
};
const OLGA: Operator = { id: 'olga', role: 'operator' };

function useCase(recorded: OperatorActionEntry[], manage: Partial<ManageBeneficiaries> = {}) {
  return new CreateBeneficiary({
    pool: strictFake<pg.Pool>('pool'),
    actions: { record: async (_db: unknown, a: OperatorActionEntry) => void recorded.push(a) } as never,
    manage: strictFake<ManageBeneficiaries>('manage', manage),
    accountIds: ['default'],
  });
}

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof OperationsError) return e.code;
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('parseCreateBeneficiary', () => {
  it('decodes the details by the contract schema', () => {
    const c = parseCreateBeneficiary('default', details);
    assert.equal(c.beneId, 'OPSB1');
    assert.ok(c.details.ok);
  });

  it('carries a refusal (and the id, for the record) instead of throwing', () => {
    const c = parseCreateBeneficiary('default', { beneId: 'OPSB3', name: 'Asha' });
    assert.equal(c.beneId, 'OPSB3');
    assert.equal(c.details.ok, false);
    assert.equal(parseCreateBeneficiary('default', 'junk').beneId, null);
  });
});

describe('CreateBeneficiary', () => {
  it('refused details are invalid_input, recorded with who asked and the id, and nothing is called', async () => {
    const recorded: OperatorActionEntry[] = [];
    const c = parseCreateBeneficiary('default', { beneId: 'OPSB3', name: 'Asha' });
    assert.equal(await codeOf(useCase(recorded).execute(OLGA, c)), OperationsErrorCode.InvalidInput);
    assert.deepEqual(
      recorded.map((a) => [a.operatorId, a.action, a.beneId, a.result]),
      [['olga', 'bene_create', 'OPSB3', 'invalid_input']],
    );
  });

  it('a viewer is refused before the details are looked at, and that is recorded', async () => {
    const recorded: OperatorActionEntry[] = [];
    const c = parseCreateBeneficiary('default', { beneId: 'OPSB3' });
    assert.equal(
      await codeOf(useCase(recorded).execute({ id: 'vic', role: 'viewer' }, c)),
      OperationsErrorCode.Forbidden,
    );
    assert.deepEqual(
      recorded.map((a) => a.result),
      ['forbidden'],
    );
  });

  it('an account the client does not know is not found, before any call', async () => {
    const recorded: OperatorActionEntry[] = [];
    const c = parseCreateBeneficiary('elsewhere', details);
    assert.equal(await codeOf(useCase(recorded).execute(OLGA, c)), OperationsErrorCode.NotFound);
  });

  it('created: the masked answer, recorded as created', async () => {
    const recorded: OperatorActionEntry[] = [];
    const s = useCase(recorded, {
      create: async () => ({ ok: true, generation: 'v1', result: 'created' }),
    });
    const v = await s.execute(OLGA, parseCreateBeneficiary('default', details));
    assert.deepEqual(v, { accountId: 'default', generation: 'v1', result: 'created' });
    assert.deepEqual(
      recorded.map((a) => a.result),
      ['created'],
    );
  });
});
