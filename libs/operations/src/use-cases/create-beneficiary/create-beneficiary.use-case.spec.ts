import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { SecretsCipher } from '#ledger';
import { type ManageBeneficiaries } from '#pipeline';
import { strictFake } from '#test-support';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import {
  type BeneficiaryProposalRepository,
  type NewBeneficiaryProposal,
} from '../../beneficiary-proposal.repository.js';
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
const OLGA: Operator = { id: 'olga', name: 'olga', role: 'operator', via: { kind: 'configured' } };

const cipher = new SecretsCipher('k1', Buffer.alloc(32, 7));

function useCase(recorded: OperatorActionEntry[], proposed: NewBeneficiaryProposal[] = []) {
  return new CreateBeneficiary({
    pool: strictFake<pg.Pool>('pool'),
    actions: { record: async (_db: unknown, a: OperatorActionEntry) => void recorded.push(a) } as never,
    // Nothing is asked of the provider when a person proposes: a call would fail the test.
    manage: strictFake<ManageBeneficiaries>('manage'),
    beneProposals: strictFake<BeneficiaryProposalRepository>('beneProposals', {
      insert: async (_db: unknown, p: NewBeneficiaryProposal) => {
        proposed.push(p);
        return {
          ...p,
          id: '7',
          proposedAt: new Date(0),
          state: 'open',
          decidedBy: null,
          decidedAt: null,
          decisionNote: null,
          result: null,
        };
      },
    }),
    cipher,
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
      await codeOf(
        useCase(recorded).execute({ id: 'vic', name: 'vic', role: 'viewer', via: { kind: 'configured' } }, c),
      ),
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

  it('a proposal, not a call: the details sealed, shown masked, recorded as proposed', async () => {
    const recorded: OperatorActionEntry[] = [];
    const proposed: NewBeneficiaryProposal[] = [];
    const v = await useCase(recorded, proposed).execute(OLGA, parseCreateBeneficiary('default', details));
    assert.deepEqual(
      [v.id, v.change, v.state, v.proposedBy, v.proposedVia],
      ['7', 'create', 'open', 'olga', 'configured'],
    );
    assert.equal(v.summary?.['bankAccount'], 'XXXXXXXXXXX1191');
    const stored = JSON.stringify(proposed);
    for (const secret of [details.bankAccount, details.phone, details.email])
      assert.ok(!stored.includes(secret) && !JSON.stringify(v).includes(secret), 'no personal data in clear');
    assert.deepEqual(JSON.parse(cipher.open(proposed[0]!.details!)), details, 'sealed, for the approval');
    assert.deepEqual(
      recorded.map((a) => [a.action, a.result, a.beneProposalId]),
      [['bene_create', 'proposed', '7']],
    );
  });
});
