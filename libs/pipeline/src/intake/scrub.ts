import { maskDigitRuns, redactDeep } from '#observability';

// The value may be a string (perhaps cut short) or, in text that is not JSON, a bare word.
const SECRET_VALUE =
  /("(?:[a-z_]*token|cryptogram|[a-z_]*secret|authorization|password)"\s*:\s*)(?:"(?:[^"\\]|\\.)*("?)|[^\s,}\]"]+)/gi;
const VPA = /([A-Za-z0-9._-]{1,2})[A-Za-z0-9._-]*@([A-Za-z0-9.-]+)/g;

/**
 * What of a rejected message may be kept: the original bytes when they hold nothing sensitive,
 * otherwise the same message with secret values redacted and account numbers and VPAs masked.
 * Parsed JSON goes through the logger's redaction; text that does not parse (truncated JSON)
 * is scrubbed by pattern.
 */
export function scrubForDeadLetter(value: Buffer): { bytes: Buffer; scrubbed: boolean } {
  const text = value.toString('utf8');
  let out: string;
  try {
    out = JSON.stringify(redactDeep(JSON.parse(text)));
    const same = JSON.stringify(JSON.parse(text)) === out;
    return same ? { bytes: value, scrubbed: false } : { bytes: Buffer.from(out), scrubbed: true };
  } catch {
    out = maskDigitRuns(
      text.replace(
        SECRET_VALUE,
        (_m, prefix: string, close: string | undefined) => `${prefix}"[REDACTED]${close ?? '"'}`,
      ),
    ).replace(VPA, (_m, head: string, domain: string) => `${head}***@${domain}`);
    return out === text ? { bytes: value, scrubbed: false } : { bytes: Buffer.from(out), scrubbed: true };
  }
}
