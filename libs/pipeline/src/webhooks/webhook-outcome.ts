import { type PayoutStatus } from '#contracts';
import { type OutcomeFields, type WebhookFields } from '#ledger';

/**
 * What a webhook that settles a payout writes onto it besides its status: the provider's ids and
 * reference, its reason, the status code (the webhook's evidence, else the state), and the fee when
 * the webhook carries it (issue 32; the ledger writes it only with a move into SUCCESS or REVERSED).
 * The payout is settled: nothing is left to check.
 */
export function webhookOutcome(
  f: WebhookFields,
  evidence: string | undefined,
  to: PayoutStatus,
): OutcomeFields {
  return {
    statusCode: evidence ?? to,
    reason: f.reason ?? null,
    utr: f.utr ?? null,
    referenceId: f.referenceId ?? null,
    svcTransferId: f.svcTransferId ?? null,
    lastError: null,
    nextCheckAt: null,
    ...(f.feeCharge === undefined
      ? {}
      : { fee: f.feeTax === undefined ? { charge: f.feeCharge } : { charge: f.feeCharge, tax: f.feeTax } }),
  };
}
