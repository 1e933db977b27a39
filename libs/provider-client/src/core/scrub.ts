import { maskFreeText } from '#observability';

const JWT_LIKE = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const MAX_MESSAGE = 300;

/**
 * Provider messages go into diagnostics and logs. They can echo what was sent, so every secret
 * of the call (client secret, bearer token, card token, cryptogram, transfer token) is cut out,
 * and digit runs that may be account numbers, e-mail addresses and VPAs are masked.
 */
export function scrub(
  text: string | undefined,
  secrets: readonly (string | undefined)[],
): string | undefined {
  if (text === undefined) return undefined;
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('[REDACTED]');
  }
  out = out.replace(JWT_LIKE, '[REDACTED]');
  // It may quote an account number, an e-mail address or a VPA too.
  out = maskFreeText(out);
  // Cut after scrubbing, so a secret is never left half-visible at the edge.
  return out.length > MAX_MESSAGE ? `${out.slice(0, MAX_MESSAGE)}…` : out;
}
