import type pg from 'pg';
import { type BatchStatus } from '#contracts';
import { type BatchChangeFields, type BatchLedger, type BatchRepository, type BatchRow } from '#ledger';
import { type AppLogger, NOOP_TRACING, type Tracing } from '#observability';
import { type BatchEntry } from '#contracts';
import { type Connectors } from '#provider-client';
import { apiOf } from '../shared/payout-kinds.js';
import { decideAfterBatchSubmit } from './decide-batch-submit.js';

export interface BatchSubmissionDeps {
  pool: pg.Pool;
  batches: BatchRepository;
  /** Every state change of a batch goes through it (transition, event, line). */
  ledger: BatchLedger;
  /** The provider, per API generation: a batch is sent on the generation it was accepted on. */
  connectors: Connectors;
  logger: AppLogger;
  /** The batch's send joins its command's trace (its row's traceparent), as a payout's does. */
  tracing?: Tracing;
}

export interface BatchSubmissionSettings {
  /** Delays between checks (RECONCILE_SCHEDULE); the first follows a send. */
  readonly schedule: readonly number[];
  readonly resendMs: number;
}

/**
 * Sends a SUBMITTING batch as a whole (same batchTransferId every time, on its generation) and
 * records what the provider said (decideAfterBatchSubmit: a re-send's refusal is never final).
 * Shared by the submit worker (first send) and the check worker (a re-send after the provider
 * said it does not have the batch).
 */
export class BatchSubmission {
  constructor(
    private readonly d: BatchSubmissionDeps,
    private readonly s: BatchSubmissionSettings,
  ) {}

  /** Never throws: a failure leaves the batch SUBMITTING, and its lease brings it back. */
  submit(batch: BatchRow): Promise<void> {
    const tracing = this.d.tracing ?? NOOP_TRACING;
    if (!tracing.enabled) return this.send(batch);
    return tracing.inSpan(
      'batch submit',
      {
        parents: [batch.traceparent],
        attributes: { 'payouts.batch.id': batch.id, 'payouts.attempt': batch.attempt },
      },
      () => this.send(batch),
    );
  }

  private async send(batch: BatchRow): Promise<void> {
    try {
      const items = await this.d.batches.items(this.d.pool, batch.id);
      const r = await this.d.connectors[apiOf(batch)].submitBatch(
        {
          batchTransferId: batch.batchTransferId,
          batchFormat: batch.batchFormat,
          entries: items.map((i) => i.entry as unknown as BatchEntry),
        },
        {
          accountId: batch.accountId,
          requestId: batch.requestId ?? `${batch.batchTransferId}:${batch.attempt}`,
        },
      );
      const d = decideAfterBatchSubmit(r, batch.attempt, {
        firstCheckMs: this.s.schedule[0] ?? 30_000,
        resendMs: this.s.resendMs,
      });
      await this.move(batch, d.to, {
        referenceId: d.referenceId ?? null,
        reason: d.reason ?? null,
        statusCode: d.statusCode ?? null,
        nextCheckAt: d.recheckInMs === undefined ? null : after(d.recheckInMs),
      });
    } catch (e) {
      this.d.logger.error(
        { err: e, batchTransferId: batch.batchTransferId },
        'batch submission failed; the lease brings it back',
      );
    }
  }

  private async move(batch: BatchRow, to: BatchStatus, fields: BatchChangeFields): Promise<void> {
    await this.d.ledger.change({ batch, to, fields, cause: 'executor' }, 'batches');
  }
}

export function after(ms: number): Date {
  return new Date(Date.now() + ms);
}
