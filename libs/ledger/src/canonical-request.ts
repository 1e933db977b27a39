import { type Command } from '#contracts';

/** Fields of a command's data that are secrets: encrypted at rest, erased at a terminal state. */
export const SECRET_FIELDS: Readonly<Record<Command['type'], readonly string[]>> = {
  'payout.standard_transfer': [],
  'payout.direct_transfer': [],
  'payout.validated_upi_payout': ['transferToken'],
  'payout.card_payout': ['cardToken', 'cryptogram'],
  'payout.batch_transfer': [],
  'payout.internal_transfer': [],
  'payout.self_withdrawal': [],
};

/** "10.5" and "10.50" are the same amount and must hash the same. */
export function normaliseAmount(a: string): string {
  const [int = '0', frac = ''] = a.split('.');
  return `${BigInt(int).toString()}.${frac.padEnd(2, '0')}`;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => {
          const v = (value as Record<string, unknown>)[k];
          return [k, k === 'amount' && typeof v === 'string' ? normaliseAmount(v) : canonical(v)];
        }),
    );
  }
  return value;
}

/**
 * The text whose hash decides "same request" for idempotency: the command type, account and
 * data, with keys sorted and amounts normalised. requestId is not part of it: a retry may carry
 * a new one.
 */
export function canonicalRequest(accountId: string, c: Command): string {
  return JSON.stringify({ type: c.type, accountId, data: canonical(c.data) });
}

/** Splits a command's data into what may be stored as is and the secrets to encrypt. */
export function splitSecrets(c: Command): {
  plain: Record<string, unknown>;
  secrets: Record<string, string> | null;
} {
  const plain: Record<string, unknown> = { ...(c.data as unknown as Record<string, unknown>) };
  const secrets: Record<string, string> = {};
  for (const f of SECRET_FIELDS[c.type]) {
    const v = plain[f];
    if (typeof v === 'string') secrets[f] = v;
    delete plain[f];
  }
  return { plain, secrets: Object.keys(secrets).length ? secrets : null };
}
