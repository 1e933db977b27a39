import type pg from 'pg';
import { type ProviderClient } from '#provider-client';
import {
  isTerminal,
  payoutStateEvent,
  type PayoutRepository,
  type PayoutRow,
  type SecretsCipher,
} from '#ledger';
import { type AppLogger } from '#observability';
import { type OutboxWriter } from '../ports.js';
import { type PipelineMetrics } from '../pipeline.metrics.js';
import { inTransaction } from '../transaction.js';
import { decideAfterSubmit, type DecisionTimings } from './decide.js';
import { errorOf, submitPayout } from './submit-payout.js';

export interface SubmissionDeps {
  pool: pg.Pool;
  payouts: PayoutRepository;
  outbox: OutboxWriter;
  client: ProviderClient;
  cipher: SecretsCipher;
  metrics: PipelineMetrics;
  logger: AppLogger;
}

/**
 * Sends a SUBMITTING payout and records what the provider said, with its event, in one
 * transaction. Shared by the executor (first send) and the reconciler (re-send of the same id).
 */
export class PayoutSubmission {
  constructor(
    private readonly d: SubmissionDeps,
    private readonly t: DecisionTimings,
  ) {}

  /** One SUBMITTING row: call the provider, then record what it said. Never throws. */
  async run(row: PayoutRow): Promise<void> {
    try {
      const sub = await submitPayout(this.d.client, this.d.cipher, row);
      const decision = decideAfterSubmit(sub, this.t);
      const moved = await inTransaction(this.d.pool, async (c) => {
        const next = await this.d.payouts.transition(
          c,
          row.id,
          row.version,
          decision.to,
          {
            statusCode: decision.statusCode ?? null,
            reason: decision.reason ?? null,
            referenceId: sub.referenceId ?? null,
            svcTransferId: sub.svcTransferId ?? null,
            utr: sub.utr ?? null,
            lastError: sub.result.outcome === 'success' ? null : errorOf(sub.result.diagnostics),
            nextCheckAt:
              decision.recheckInMs === undefined ? null : new Date(Date.now() + decision.recheckInMs),
          },
          isTerminal(decision.to),
        );
        if (next) await this.d.outbox.enqueue(c, [payoutStateEvent(next)]);
        return next;
      });
      if (!moved) {
        this.d.metrics.staleResults.inc({ source: 'executor' });
        this.d.logger.warn(
          { transferId: row.transferId },
          'executor: row moved on during the call; result dropped',
        );
        return;
      }
      this.d.logger.info(
        {
          transferId: row.transferId,
          accountId: row.accountId,
          kind: row.kind,
          requestId: row.requestId,
          from: row.status,
          to: moved.status,
          version: moved.version,
          outcome: sub.result.outcome,
          reason: moved.reason,
        },
        'payout state changed',
      );
    } catch (e) {
      // The row stays SUBMITTING under its lease; the reconciler re-sends it with the same id.
      this.d.logger.error({ err: e, transferId: row.transferId }, 'executor: recording the outcome failed');
    }
  }
}
