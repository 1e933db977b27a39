import { type Connectors } from '#provider-client';
import { type PayoutRow, type SecretsCipher } from '#ledger';
import { type AppLogger, NOOP_TRACING, type Tracing } from '#observability';
import { type OutcomeRecorder } from './outcome-recorder.js';
import { type LeaseKeeper } from './lease-keeper.js';
import { decideAfterSubmit, type DecisionTimings } from './decide-after-submit.js';
import { errorOf, submitPayout } from './submit-payout.js';

export interface SubmissionDeps {
  /** Writes the outcome and its event, grouped with other outcomes into one transaction. */
  recorder: OutcomeRecorder;
  /** The provider, per API generation: a row is sent on the generation it was accepted on. */
  connectors: Connectors;
  cipher: SecretsCipher;
  logger: AppLogger;
  /** Keeps the row's lease alive while its call runs. */
  leases: LeaseKeeper;
  /** A span per submission, in the payout's trace (ADR 0015). */
  tracing?: Tracing;
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

  private readonly running = new Set<Promise<void>>();
  /** The rows of the calls in flight, as each call started from them. */
  private readonly rows = new Map<string, PayoutRow>();

  /** One SUBMITTING row: call the provider, then record what it said. Never throws. */
  run(row: PayoutRow): Promise<void> {
    this.d.leases.hold(row.id, row.version);
    this.rows.set(row.id, row);
    const tracing = this.d.tracing ?? NOOP_TRACING;
    const submitted = !tracing.enabled
      ? this.submit(row)
      : tracing.inSpan(
          'payout submit',
          {
            parents: [row.traceparent],
            attributes: { 'payouts.kind': row.kind, 'payouts.attempt': row.attempt, 'payouts.id': row.id },
          },
          () => this.submit(row),
        );
    const p = submitted.finally(() => {
      this.d.leases.release(row.id);
      if (this.rows.get(row.id) === row) this.rows.delete(row.id);
      this.running.delete(p);
    });
    this.running.add(p);
    return p;
  }

  /** Resolves true once every call in flight has recorded its outcome, false at the deadline. */
  async drain(deadline: number): Promise<boolean> {
    while (this.running.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.running]),
        new Promise((r) => (timer = setTimeout(r, left))),
      ]);
      clearTimeout(timer);
    }
    return true;
  }

  /**
   * Shutdown past its grace: the calls still in flight will die with the process. Each such row
   * becomes UNKNOWN (its call may have reached the provider) with a status check due at once,
   * instead of waiting SUBMITTING for its lease to run out. A call that answers after this finds
   * the row moved on, and its answer is dropped; the status check finds the truth.
   */
  async abandonInFlight(): Promise<number> {
    const rows = this.d.leases
      .inFlight()
      .map((h) => this.rows.get(h.id))
      .filter((r): r is PayoutRow => r !== undefined);
    const moved = await Promise.all(
      rows.map((r) =>
        this.d.recorder
          .record({
            row: r,
            to: 'UNKNOWN',
            fields: {
              reason: 'interrupted_by_shutdown',
              lastError: { interrupted: true },
              nextCheckAt: new Date(),
              // The call was in flight: it may have reached the provider.
              maybeReached: true,
            },
          })
          .catch((e: unknown) => {
            this.d.logger.error({ err: e, payoutId: r.id }, 'could not mark an interrupted call UNKNOWN');
            return undefined;
          }),
      ),
    );
    for (const r of rows) this.d.leases.release(r.id);
    const n = moved.filter(Boolean).length;
    if (rows.length > 0) {
      this.d.logger.warn(
        { interrupted: rows.length, markedUnknown: n },
        'shutdown: provider calls still in flight are left to a status check',
      );
    }
    return n;
  }

  private async submit(row: PayoutRow): Promise<void> {
    try {
      const sub = await submitPayout(this.d.connectors, this.d.cipher, row);
      const decision = decideAfterSubmit(sub, this.t, row);
      this.d.leases.recording(row.id);
      // The ledger logs the change, or counts it stale when the row moved on during the call.
      await this.d.recorder.record({
        row,
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
          ...(decision.maybeReached ? { maybeReached: true } : {}),
          ...(decision.resendRefused ? { resendRefused: true } : {}),
          ...(decision.subState ? { subState: decision.subState } : {}),
          // The provider's fee (issue 32), when a settled answer says it.
          ...(sub.fee ? { fee: sub.fee } : {}),
        },
        log: { outcome: sub.result.outcome },
      });
    } catch (e) {
      // The row stays SUBMITTING; once its lease runs out the reconciler asks the provider about it.
      this.d.logger.error({ err: e, transferId: row.transferId }, 'executor: recording the outcome failed');
    }
  }
}
