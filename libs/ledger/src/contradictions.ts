import type pg from 'pg';
import { type PayoutStatus } from '#contracts';
import { inTransaction } from '#database';
import { type AppLogger } from '#observability';
import {
  contradictedEvent,
  contradictionEventId,
  entryContradictedEvent,
  entryContradictionEventId,
} from './contradiction-events.js';
import {
  type ContradictionRepository,
  type ContradictionRow,
  type ContradictionSource,
} from './contradiction.repository.js';
import { CAUSE_OF_SOURCE, type HistoryRepository } from './history.repository.js';
import { payoutHistoryOf } from './history-rows.js';
import { type BatchItemRow, type BatchRow, type PayoutRow } from './ledger.types.js';
import { type ContradictionCounter, type LedgerOutbox } from './ledger.ports.js';
import { announcerOf, type LedgerTransaction } from './ledger-transaction.js';
import { contradictionOf } from './state-machine.js';

/**
 * Contradictions (ADR 0018): a later provider signal about a payout or batch entry whose terminal
 * state is published. Not a move: the published state stands; the ledger records the
 * contradiction row (the queue's marker until a person acknowledges it), its
 * `payouts.payout.contradicted` event and a history row, and counts and logs it after the commit.
 * PayoutLedger.contradict and BatchLedger.contradictEntries are the doors.
 */

/** A later provider signal about a payout whose terminal state is published (ADR 0018). */
export interface ContradictionReport {
  /** The row as the reporter read it: recorded only while it is still at this version. */
  readonly row: PayoutRow;
  /** What the provider now says, as a ledger status. */
  readonly observed: PayoutStatus;
  /** The provider's own status word (masked in the event). */
  readonly observedCode?: string | null;
}

/** A later provider answer about an entry whose terminal state is published (ADR 0018). */
export interface EntryContradiction {
  /** The entry as the reporter read it, under the batch's lock: recorded only at this version. */
  readonly item: BatchItemRow;
  readonly observed: PayoutStatus;
  /** The provider's own status word (masked in the event). */
  readonly observedCode?: string | null;
}

/** What recording a contradiction writes to and tells. */
export interface ContradictionDeps {
  readonly outbox: LedgerOutbox;
  readonly history: HistoryRepository;
  readonly contradictions?: ContradictionRepository;
  readonly contradicted?: ContradictionCounter;
}

/**
 * A payout's contradiction in its own transaction (`traced` wraps it in the caller's span). A
 * repeat of the same observation of the same version, or a row that has moved on, writes nothing
 * and returns undefined. A report that contradicts nothing is a defect in the caller: it throws
 * and writes nothing.
 */
export async function recordPayoutContradiction(
  d: ContradictionDeps & { readonly pool: pg.Pool },
  report: ContradictionReport,
  source: ContradictionSource,
  logger: AppLogger,
  traced: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<ContradictionRow | undefined> {
  const { row, observed } = report;
  const kind = contradictionOf(row.status, observed);
  if (!kind) throw new Error(`not a contradiction of ${row.transferId}: ${row.status} then ${observed}`);
  const repo = d.contradictions;
  if (!repo) throw new Error('the ledger has no contradiction repository');
  const recorded = await traced(() =>
    inTransaction(d.pool, async (c) => {
      const inserted = await repo.insert(c, {
        payoutId: row.id,
        version: row.version,
        published: row.status,
        observed,
        kind,
        source,
        observedCode: report.observedCode ?? null,
        eventId: contradictionEventId(row.accountId, row.transferId, row.version, observed),
      });
      if (!inserted) return undefined;
      await d.outbox.enqueue(c, [contradictedEvent(row, inserted)]);
      await d.history.record(c, [
        {
          ...payoutHistoryOf(row.status, row, CAUSE_OF_SOURCE[source]),
          reason: `contradicted_${kind}`,
          statusCode: observed,
        },
      ]);
      return inserted;
    }),
  );
  if (recorded) {
    d.contradicted?.({ kind, published: row.status, observed, source });
    logger.error(
      {
        transferId: row.transferId,
        accountId: row.accountId,
        requestId: row.requestId,
        kind: row.kind,
        published: row.status,
        observed,
        contradiction: kind,
        version: row.version,
        eventId: recorded.eventId,
      },
      'payout contradicted: the provider now says otherwise than the published terminal state; a person must settle it',
    );
  }
  return recorded;
}

/**
 * Entries' contradictions in the caller's ledger transaction (which holds the batch's lock); after
 * the commit, the count and an error line each. A repeat of an observation, or an entry that moved
 * on, writes nothing. A report that contradicts nothing is a defect in the caller: it throws.
 */
export async function recordEntryContradictions(
  d: ContradictionDeps,
  log: AppLogger,
  tx: LedgerTransaction,
  batch: BatchRow,
  reports: readonly EntryContradiction[],
  source: ContradictionSource,
): Promise<ContradictionRow[]> {
  if (reports.length === 0) return [];
  const repo = d.contradictions;
  if (!repo) throw new Error('the batch ledger has no contradiction repository');
  const announce = announcerOf(tx);
  const recorded: Array<{ report: EntryContradiction; row: ContradictionRow }> = [];
  for (const report of reports) {
    const { item, observed } = report;
    const kind = contradictionOf(item.status as PayoutStatus, observed);
    if (!kind) throw new Error(`not a contradiction of ${item.transferId}: ${item.status} then ${observed}`);
    const row = await repo.insertEntry(tx.client, {
      batchId: batch.id,
      transferId: item.transferId,
      version: item.version,
      published: item.status,
      observed,
      kind,
      source,
      observedCode: report.observedCode ?? null,
      eventId: entryContradictionEventId(batch, item.transferId, item.version, observed),
    });
    if (row) recorded.push({ report, row });
  }
  if (recorded.length === 0) return [];
  await d.outbox.enqueue(
    tx.client,
    recorded.map(({ report, row }) => entryContradictedEvent(batch, report.item, row)),
  );
  await d.history.record(
    tx.client,
    recorded.map(({ report: { item }, row }) => ({
      subject: 'batch_entry' as const,
      subjectId: batch.id,
      accountId: batch.accountId,
      transferId: item.transferId,
      from: item.status,
      to: item.status,
      version: item.version,
      cause: CAUSE_OF_SOURCE[source],
      reason: `contradicted_${row.kind}`,
      statusCode: row.observed,
      referenceId: item.referenceId,
      utr: item.utr,
    })),
  );
  announce(() => {
    for (const { report, row } of recorded) {
      d.contradicted?.({ kind: row.kind, published: row.published, observed: row.observed, source });
      log.error(
        {
          transferId: report.item.transferId,
          batchTransferId: batch.batchTransferId,
          accountId: batch.accountId,
          requestId: batch.requestId,
          kind: 'batch_entry',
          published: row.published,
          observed: row.observed,
          contradiction: row.kind,
          version: report.item.version,
          eventId: row.eventId,
        },
        'batch entry contradicted: the provider now says otherwise than the published terminal state; a person must settle it',
      );
    }
  });
  return recorded.map((r) => r.row);
}
