import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { type BatchRepository, type PayoutRepository, type PayoutRow } from '#ledger';
import { createLogger } from '#observability';
import { payoutRow, strictFake } from '#test-support';
import { Writable } from 'node:stream';
import { OperationsError, OperationsErrorCode } from './operations.errors.js';
import { OperationsService } from './operations.service.js';
import { payoutView } from './operations.views.js';
import { type OperatorActionEntry } from './operator-action.repository.js';
import { type Operator } from './operators.js';

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

function service(payouts: Partial<Record<keyof PayoutRepository, unknown>>): OperationsService {
  return new OperationsService({
    pool: strict<pg.Pool>('pool'),
    payouts: strict<PayoutRepository>('payouts', payouts),
    batches: strict<BatchRepository>('batches'),
    ledger: strict('ledger'),
    history: strict('history'),
    search: strict('search'),
    actions: { record: async (_db: unknown, a: OperatorActionEntry) => void recorded.push(a) } as never,
    proposals: strict('proposals'),
    replayDead: () => Promise.reject(new Error('unexpected replay')),
    logger: silent,
  });
}

const recorded: OperatorActionEntry[] = [];
const ALICE: Operator = { id: 'alice', role: 'operator' };

const codeOf = async (p: Promise<unknown>): Promise<OperationsErrorCode> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof OperationsError) return e.code;
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('OperationsService.recheck', () => {
  for (const status of ['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED'] as const) {
    it(`refuses a ${status} payout without touching it`, async () => {
      const s = service({ findOne: async () => row({ status }) });
      assert.equal(await codeOf(s.recheck(ALICE, 'acc', 't1')), OperationsErrorCode.Terminal);
    });
  }

  it('refuses a RECEIVED payout (not sent yet)', async () => {
    const s = service({ findOne: async () => row({ status: 'RECEIVED' }) });
    assert.equal(await codeOf(s.recheck(ALICE, 'acc', 't1')), OperationsErrorCode.NotSubmitted);
  });

  it('refuses a self withdrawal in REQUIRES_ATTENTION: there is no status endpoint', async () => {
    const s = service({
      findOne: async () => row({ status: 'REQUIRES_ATTENTION', kind: 'self_withdrawal' }),
    });
    assert.equal(await codeOf(s.recheck(ALICE, 'acc', 't1')), OperationsErrorCode.NoStatusEndpoint);
  });

  it('a row held by a worker is in flight: 409, nothing else is done', async () => {
    const s = service({
      findOne: async () => row({ status: 'SUBMITTING' }),
      checkNow: async () => undefined,
    });
    assert.equal(await codeOf(s.recheck(ALICE, 'acc', 't1')), OperationsErrorCode.InFlight);
  });

  it('a refusal is recorded with who asked', async () => {
    recorded.length = 0;
    const s = service({ findOne: async () => row({ status: 'FAILED', id: '42' }) });
    await codeOf(s.recheck(ALICE, 'acc', 't1'));
    assert.deepEqual(
      recorded.map((a) => [a.operatorId, a.role, a.action, a.payoutId, a.result]),
      [['alice', 'operator', 'recheck', '42', 'terminal']],
    );
  });

  it('a viewer may not recheck: refused before anything is read', async () => {
    const s = service({});
    assert.equal(
      await codeOf(s.recheck({ id: 'v', role: 'viewer' }, 'acc', 't1')),
      OperationsErrorCode.Forbidden,
    );
  });

  it('an unknown payout is not found', async () => {
    const s = service({ findOne: async () => undefined });
    assert.equal(await codeOf(s.recheck(ALICE, 'acc', 'nope')), OperationsErrorCode.NotFound);
  });
});

describe('OperationsService.requiringAttention', () => {
  for (const limit of [0, -1, 501, 1.5, Number.NaN]) {
    it(`rejects limit ${limit}`, async () => {
      assert.equal(await codeOf(service({}).requiringAttention(limit)), OperationsErrorCode.InvalidInput);
    });
  }
});

describe('payoutView', () => {
  it('masks the beneficiary and leaves out the request, its secrets and last error', () => {
    const v = payoutView(row({}));
    assert.deepEqual(v.beneficiary, {
      bankAccount: 'XXXXXXXXXXX1191',
      ifsc: 'YESB0000262',
      vpa: 'so***@upi',
    });
    const text = JSON.stringify(v);
    for (const s of ['026291800001191', 'someone@upi', 'cardToken', 'processed', '"request"'])
      assert.ok(!text.includes(s), s);
    assert.equal(v.amount, '150.00');
  });
});
