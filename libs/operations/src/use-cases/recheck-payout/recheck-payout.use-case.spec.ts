import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { type PayoutRepository, type PayoutRow } from '#ledger';
import { createLogger } from '#observability';
import { payoutRow, strictFake } from '#test-support';
import { Writable } from 'node:stream';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { type OperatorActionEntry } from '../../operator-action.repository.js';
import { type Operator } from '../../operators.js';
import { RecheckPayout } from './recheck-payout.use-case.js';

const strict = strictFake;

const silent = createLogger({
  level: 'silent',
  name: 'spec',
  destination: new Writable({ write: (_c, _e, cb) => cb() }),
});

function row(p: Partial<PayoutRow>): PayoutRow {
  return payoutRow({
    accountId: 'acc',
    request: {
      beneDetails: { name: 'N', bankAccount: '026291800001191', ifsc: 'YESB0000262', vpa: 'someone@upi' },
    },
    requestSecrets: {
      cardToken: { k: 'dev-1', iv: 'x', tag: 'y', data: 'z' },
    } as unknown as PayoutRow['requestSecrets'],
    lastError: { processed: true },
    amount: '150.00',
    status: 'PENDING',
    version: 3,
    referenceId: 'ref',
    requestId: 'req',
    checkCount: 2,
    ...p,
  });
}

function useCase(payouts: Partial<Record<keyof PayoutRepository, unknown>>): RecheckPayout {
  return new RecheckPayout({
    pool: strict<pg.Pool>('pool'),
    payouts: strict<PayoutRepository>('payouts', payouts),
    ledger: strict('ledger'),
    actions: { record: async (_db: unknown, a: OperatorActionEntry) => void recorded.push(a) } as never,
    logger: silent,
  });
}

const recorded: OperatorActionEntry[] = [];
const ALICE: Operator = { id: 'alice', name: 'alice', role: 'operator', via: { kind: 'configured' } };

const codeOf = async (p: Promise<unknown>): Promise<OperationsErrorCode> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof OperationsError) return e.code;
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('RecheckPayout', () => {
  for (const status of ['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED'] as const) {
    it(`refuses a ${status} payout without touching it`, async () => {
      const s = useCase({ findOne: async () => row({ status }) });
      assert.equal(
        await codeOf(s.execute(ALICE, { accountId: 'acc', transferId: 't1' })),
        OperationsErrorCode.Terminal,
      );
    });
  }

  it('refuses a RECEIVED payout (not sent yet)', async () => {
    const s = useCase({ findOne: async () => row({ status: 'RECEIVED' }) });
    assert.equal(
      await codeOf(s.execute(ALICE, { accountId: 'acc', transferId: 't1' })),
      OperationsErrorCode.NotSubmitted,
    );
  });

  it('refuses a self withdrawal in REQUIRES_ATTENTION: there is no status endpoint', async () => {
    const s = useCase({
      findOne: async () => row({ status: 'REQUIRES_ATTENTION', kind: 'self_withdrawal' }),
    });
    assert.equal(
      await codeOf(s.execute(ALICE, { accountId: 'acc', transferId: 't1' })),
      OperationsErrorCode.NoStatusEndpoint,
    );
  });

  it('a row held by a worker is in flight: 409, nothing else is done', async () => {
    const s = useCase({
      findOne: async () => row({ status: 'SUBMITTING' }),
      checkNow: async () => undefined,
    });
    assert.equal(
      await codeOf(s.execute(ALICE, { accountId: 'acc', transferId: 't1' })),
      OperationsErrorCode.InFlight,
    );
  });

  it('a refusal is recorded with who asked', async () => {
    recorded.length = 0;
    const s = useCase({ findOne: async () => row({ status: 'FAILED', id: '42' }) });
    await codeOf(s.execute(ALICE, { accountId: 'acc', transferId: 't1' }));
    assert.deepEqual(
      recorded.map((a) => [a.operatorId, a.role, a.action, a.payoutId, a.result]),
      [['alice', 'operator', 'recheck', '42', 'terminal']],
    );
  });

  it('a viewer may not recheck: refused before anything is read', async () => {
    const s = useCase({});
    assert.equal(
      await codeOf(
        s.execute(
          { id: 'v', name: 'v', role: 'viewer', via: { kind: 'configured' } },
          { accountId: 'acc', transferId: 't1' },
        ),
      ),
      OperationsErrorCode.Forbidden,
    );
  });

  it('an unknown payout is not found', async () => {
    const s = useCase({ findOne: async () => undefined });
    assert.equal(
      await codeOf(s.execute(ALICE, { accountId: 'acc', transferId: 'nope' })),
      OperationsErrorCode.NotFound,
    );
  });
});
