import type pg from 'pg';
import { inTransaction } from '#database';

/**
 * One ledger transaction (ADR 0003, amendment): the caller's own statements go through `client`
 * (dead letters, the withdrawal quota, proposals); the ledger's steps take the transaction itself
 * (`PayoutLedger.apply`, `BatchLedger.admit`, ...). What a step announces (its state-change line,
 * a stale count, an attention count) runs once its transaction has committed, in the order the
 * steps ran, and never when it rolls back: a caller cannot forget it, nor announce a change that
 * did not happen.
 */
export interface LedgerTransaction {
  readonly client: pg.PoolClient;
}

/** The announcements of the open transactions; a transaction leaves it when it ends. */
const open = new WeakMap<LedgerTransaction, Array<() => void>>();

/**
 * Runs `work` in one transaction, then its announcements. `around` wraps the transaction alone (a
 * span): the announcements run after it, as the state-change lines always have.
 */
export async function runLedgerTransaction<T>(
  pool: pg.Pool,
  work: (tx: LedgerTransaction) => Promise<T>,
  around: (run: () => Promise<T>) => Promise<T> = (run) => run(),
): Promise<T> {
  const announcements: Array<() => void> = [];
  const out = await around(() =>
    inTransaction(pool, async (client) => {
      const tx: LedgerTransaction = Object.freeze({ client });
      open.set(tx, announcements);
      try {
        return await work(tx);
      } finally {
        // A step called after `work` returned (a leaked tx) has no commit left to wait for.
        open.delete(tx);
      }
    }),
  );
  for (const announce of announcements) announce();
  return out;
}

/**
 * Where a step of `tx` queues its announcements for after the commit. Asked for before the step
 * writes anything: it throws for an object the ledger did not open, or a transaction that has
 * ended, where a step would write outside any transaction the ledger commits and announces.
 */
export function announcerOf(tx: LedgerTransaction): (announce: () => void) => void {
  const queue = open.get(tx);
  if (!queue) throw new Error('not an open ledger transaction: a ledger step runs inside ledger.transaction');
  return (announce) => queue.push(announce);
}
