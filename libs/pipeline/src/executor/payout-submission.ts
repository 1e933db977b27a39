import { type ProviderClient } from '#provider-client';
import { isTerminal, type PayoutRow, type SecretsCipher } from '#ledger';
import { type AppLogger } from '#observability';
import { type PipelineMetrics } from '../pipeline.metrics.js';
import { type OutcomeRecorder } from './outcome-recorder.js';
import { decideAfterSubmit, type DecisionTimings } from './decide.js';
import { errorOf, submitPayout } from './submit-payout.js';

export interface SubmissionDeps {
  /** Writes the outcome and its event, grouped with other outcomes into one transaction. */
  recorder: OutcomeRecorder;
  client: ProviderClient;
  cipher: SecretsCipher;
  metrics: PipelineMetrics;
  logger: AppLogger;
}

/**
 * Sends a SUBMITTING payout and records what the provider said, with its event, in one
 * transaction (shared with other outcomes of the same moment). Shared by the executor (first send) and the reconciler (re-send of the same id).
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
      const moved = await this.d.recorder.record({
        id: row.id,
        fromVersion: row.version,
        to: decision.to,
        fields: {
          statusCode: decision.statusCode ?? null,
          reason: decision.reason ?? null,
          referenceId: sub.referenceId ?? null,
          svcTransferId: sub.svcTransferId ?? null,
          utr: sub.utr ?? null,
          lastError:
            sub.result.outcome === 'success'
              ? null
              : // Staying SUBMITTING means the provider did not process it: safe to send again, any kind.
                { ...errorOf(sub.result.diagnostics), processed: decision.to !== 'SUBMITTING' },
          nextCheckAt:
            decision.recheckInMs === undefined ? null : new Date(Date.now() + decision.recheckInMs),
        },
        eraseSecrets: isTerminal(decision.to),
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
