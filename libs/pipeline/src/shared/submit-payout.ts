import { decodeCommandData } from '#contracts';
import { type Connectors, type Diagnostics, type PayoutSubmitted } from '#provider-client';
import { type PayoutKind, type PayoutRow, type SecretsCipher } from '#ledger';
import { apiOf } from './payout-kinds.js';

/** What one provider call said, reduced to what the ledger records. */
export interface SubmissionResult extends PayoutSubmitted {
  /**
   * The stored request no longer decodes with its command's schema: nothing was sent, and a
   * person decides (an earlier attempt may have reached the provider).
   */
  readonly storedRequestInvalid?: true;
}

function secretsOf(row: PayoutRow, cipher: SecretsCipher): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, sealed] of Object.entries(row.requestSecrets ?? {})) out[k] = cipher.open(sealed);
  return out;
}

/**
 * Sends one payout with the same transferId every time it is called, on the generation the row
 * was sent on first: a re-send after a crash or an unclear answer is deduplicated by the provider
 * ("already exists"), never a second payment.
 */
export async function submitPayout(
  connectors: Connectors,
  cipher: SecretsCipher,
  row: PayoutRow,
): Promise<SubmissionResult> {
  return send(row.kind, connectors, cipher, row);
}

/** Generic in the kind, so that the decoded request is that kind's command data. */
async function send<K extends PayoutKind>(
  kind: K,
  connectors: Connectors,
  cipher: SecretsCipher,
  row: PayoutRow,
): Promise<SubmissionResult> {
  const connector = connectors[apiOf(row)];
  const requestId = row.requestId ?? `${row.transferId}:${row.attempt}`;
  const request = decodeCommandData(`payout.${kind}`, { ...row.request, ...secretsOf(row, cipher) });
  if (!request.ok) {
    // Intake decoded it with the same schema: a schema change or a hand-edited row. Not sent.
    const message = `stored request does not match the ${kind} command schema: ${request.detail}`;
    return {
      result: {
        outcome: 'failed',
        kind: 'invalid-request',
        reason: message,
        diagnostics: {
          endpoint: connector.traits(kind).initiation,
          requestId,
          sent: false,
          attempts: 0,
          durationMs: 0,
          message,
        },
      },
      storedRequestInvalid: true,
    };
  }
  return connector.submitPayout(
    { kind, transferId: row.transferId, amount: row.amount, request: request.value },
    { accountId: row.accountId, requestId },
  );
}

/**
 * What the row keeps of a call for support: the diagnostics the connector gave (already scrubbed),
 * as it gave them, less the call's own bookkeeping (request id, attempts, timing) and the evidence
 * kept as the status code.
 */
export function errorOf(d: Diagnostics): Record<string, unknown> {
  const {
    requestId: _id,
    attempts: _n,
    durationMs: _ms,
    earlierAttemptMayHaveReached: _e,
    evidence: _v,
    ...kept
  } = d;
  return kept;
}
