import { decodeCommandData } from '#contracts';
import { type Diagnostics, type ProviderClient } from '#provider-client';
import { type PayoutKind, type PayoutRow, type SecretsCipher } from '#ledger';
import { PAYOUT_KINDS, type KindRules, type SubmissionResult } from '../shared/payout-kinds.js';

export type { SubmissionResult } from '../shared/payout-kinds.js';

function secretsOf(row: PayoutRow, cipher: SecretsCipher): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, sealed] of Object.entries(row.requestSecrets ?? {})) out[k] = cipher.open(sealed);
  return out;
}

/**
 * Sends one payout with the same transferId every time it is called: a re-send after a crash or
 * an unclear answer is deduplicated by the provider ("already exists"), never a second payment.
 */
export async function submitPayout(
  client: ProviderClient,
  cipher: SecretsCipher,
  row: PayoutRow,
): Promise<SubmissionResult> {
  return send(row.kind, client, cipher, row);
}

/** One kind's row of the table: generic, so that its `send` takes that kind's decoded request. */
async function send<K extends PayoutKind>(
  kind: K,
  client: ProviderClient,
  cipher: SecretsCipher,
  row: PayoutRow,
): Promise<SubmissionResult> {
  const rules: KindRules<K> = PAYOUT_KINDS[kind];
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
          endpoint: rules.endpoint,
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
  return rules.send(client, request.value, row, { accountId: row.accountId, requestId });
}

/** Raw provider codes kept on the row for support (already scrubbed by the client). */
export function errorOf(d: Diagnostics): Record<string, unknown> {
  return {
    endpoint: d.endpoint,
    sent: d.sent,
    httpStatus: d.httpStatus,
    status: d.status,
    subCode: d.subCode,
    code: d.code,
    message: d.message,
    errorCode: d.errorCode,
  };
}
