import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { type BalanceAsk, type BalanceReadingRepository, type StoredBalanceReading } from '#ledger';
import { createLogger } from '#observability';
import { type AccountBalance, type ProviderResult } from '#provider-client';
import { BalanceReader } from './balance-reader.js';

const diagnostics = { endpoint: 'getBalance', requestId: 'r', sent: true, attempts: 1, durationMs: 1 };

/** The repository's behaviour in memory: the claim, the reading kept across a failure. */
function memoryReadings(clock: () => Date) {
  const rows = new Map<
    string,
    StoredBalanceReading & { due: boolean; failure?: string; figures?: BalanceAsk['figures'] }
  >();
  const marked: string[] = [];
  const repo = {
    ask: (): Promise<BalanceAsk> =>
      Promise.resolve({ askedAt: clock(), figures: { sentTotal: '12.00', inDoubt: '3.00' } }),
    claimDue: (_db: unknown, ids: readonly string[]) => {
      const due = ids.filter((id) => rows.get(id)?.due ?? true);
      for (const id of due) {
        const r = rows.get(id);
        if (r) rows.set(id, { ...r, due: false });
        else
          rows.set(id, {
            accountId: id,
            available: '',
            ledger: '',
            readAt: new Date(0),
            failures: 0,
            failedAt: null,
            due: false,
          });
      }
      return Promise.resolve(due);
    },
    readSoon: (_db: unknown, id: string) => {
      marked.push(id);
      const r = rows.get(id);
      if (r) rows.set(id, { ...r, due: true });
      return Promise.resolve();
    },
    record: (_db: unknown, id: string, available: string, ledger: string, ask: BalanceAsk) => {
      rows.set(id, {
        accountId: id,
        available,
        ledger,
        readAt: ask.askedAt,
        failures: 0,
        failedAt: null,
        due: false,
        figures: ask.figures,
      });
      return Promise.resolve();
    },
    failed: (_db: unknown, id: string, failure: string) => {
      const r = rows.get(id)!;
      rows.set(id, { ...r, failures: r.failures + 1, failedAt: new Date(), failure });
      return Promise.resolve();
    },
    latest: (_db: unknown, id: string) => {
      const r = rows.get(id);
      return Promise.resolve(r && r.available !== '' ? r : null);
    },
  };
  return { repo: repo as unknown as BalanceReadingRepository, rows, marked };
}

function reader(
  answers: Array<ProviderResult<AccountBalance>>,
  intervalMs = 60_000,
  clock: () => Date = () => new Date('2026-11-27T10:00:00Z'),
  onReading?: (accountId: string) => void,
) {
  const { repo, rows, marked } = memoryReadings(clock);
  const counted: string[] = [];
  const asked: string[] = [];
  const r = new BalanceReader(
    {
      pool: {} as pg.Pool,
      readings: repo,
      provider: {
        balance: (accountId) => {
          asked.push(accountId);
          return Promise.resolve(answers.shift()!);
        },
      },
      accountIds: ['a'],
      logger: createLogger({ level: 'silent', name: 'test' }),
      metrics: { read: (account, outcome) => counted.push(`${account}:${outcome}`) },
      ...(onReading ? { onReading } : {}),
    },
    { intervalMs },
  );
  return { r, rows, marked, counted, asked };
}

const ok = (available: string, readAt: Date): ProviderResult<AccountBalance> => ({
  outcome: 'success',
  data: { available, ledger: available, readAt },
  diagnostics,
});

describe('the balance reader (issue 32)', () => {
  it('reads a due account once, keeps the reading, and counts it', async () => {
    const at = new Date('2026-11-27T10:00:00Z');
    const { r, counted, asked } = reader([ok('12.30', new Date('2026-11-27T10:00:01Z'))]);
    await r.step();
    await r.step();
    assert.deepEqual(asked, ['a'], 'claimed: not read again before its interval');
    assert.deepEqual(await r.latest('a'), { available: '12.30', readAt: at });
    assert.deepEqual(counted, ['a:success']);
  });

  it('a failed read keeps the last reading and its time, and is counted by outcome', async () => {
    const at = new Date('2026-11-27T10:00:00Z');
    const { r, rows, counted, marked } = reader([
      ok('12.30', new Date('2026-11-27T10:00:01Z')),
      { outcome: 'unknown', reason: 'timeout', diagnostics },
    ]);
    await r.step();
    await r.readSoon('a');
    await r.step();
    assert.deepEqual(marked, ['a']);
    assert.deepEqual(await r.latest('a'), { available: '12.30', readAt: at });
    assert.equal(rows.get('a')?.failures, 1);
    assert.deepEqual(counted, ['a:success', 'a:unknown']);
  });

  it("the reading's time is when it was asked, on the database's clock, not when the answer came", async () => {
    // A payout sent while the call is in the air must count as not in the reading (ADR 0027): the
    // time is taken before the call, from the database (the clock of the ledger's sent_at).
    const askedAt = new Date('2026-11-27T09:59:59.100Z');
    const answeredAt = new Date('2026-11-27T10:00:02Z');
    const callsBeforeClock: number[] = [];
    const t = reader([ok('50.00', answeredAt)], 60_000, () => {
      callsBeforeClock.push(t.asked.length);
      return askedAt;
    });
    const { r } = t;
    await r.step();
    assert.deepEqual(callsBeforeClock, [0], 'the clock is read once, before the call');
    assert.deepEqual(t.asked, ['a']);
    assert.deepEqual(await r.latest('a'), { available: '50.00', readAt: askedAt });
    assert.deepEqual(
      t.rows.get('a')?.figures,
      { sentTotal: '12.00', inDoubt: '3.00' },
      "the figures taken with the ask are kept with the answer (the rounds' bound)",
    );
  });

  it('off (interval 0) and unknown accounts: a notice marks nothing', async () => {
    const off = reader([], 0);
    await off.r.readSoon('a');
    off.r.start();
    await off.r.stop();
    assert.deepEqual(off.marked, []);
    const on = reader([]);
    await on.r.readSoon('not-configured');
    assert.deepEqual(on.marked, []);
  });

  it('tells its listener of each reading kept (hold for funds: the release), not of a failed read', async () => {
    const told: string[] = [];
    const { r } = reader(
      [
        ok('1.00', new Date()),
        { outcome: 'unknown', reason: 'timeout', diagnostics },
        ok('2.00', new Date()),
      ],
      60_000,
      undefined,
      (id) => told.push(id),
    );
    await r.readOne('a');
    await r.readOne('a');
    assert.deepEqual(told, ['a'], 'the failed read told nothing');
    await r.readOne('a');
    assert.deepEqual(told, ['a', 'a']);
  });
});
