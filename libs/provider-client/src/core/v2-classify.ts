import { z } from 'zod';
import { type ProviderSubState } from '#contracts';
import { type Classified, type FailureKind, type OutcomeClass, type WireFacts } from './outcome.js';
import {
  type HttpAnswer,
  normaliseMessage,
  parseJson,
  retryAfterMs,
  saysAlreadyExists,
} from './http-answer.js';
import { fromDecoded } from './legacy-classify.js';

/** One documented v2 error row: HTTP status plus the error object's `code` (and optionally message). */
export interface V2OutcomeRow {
  readonly http: number;
  readonly code?: string;
  readonly message?: string;
  readonly outcome: OutcomeClass;
  readonly kind?: FailureKind;
  readonly meaning: string;
}

export type V2OutcomeTable = readonly V2OutcomeRow[];

/** Rows any v2 endpoint can answer: credentials and source-address problems are configuration. */
export const COMMON_V2_ROWS: V2OutcomeTable = [
  { http: 401, outcome: 'fatal-config', meaning: 'Client id and secret rejected' },
  { http: 403, message: 'ip not whitelisted', outcome: 'fatal-config', meaning: 'IP not whitelisted' },
  { http: 403, message: 'not enabled', outcome: 'fatal-config', meaning: 'APIs not enabled for the account' },
];

const errorSchema = z.object({
  type: z.string().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});

/** Reads a 2xx body. The outcome comes from the payload (a transfer's status), not from HTTP. */
export type V2Decoder<D> = (body: unknown) =>
  | {
      readonly data: D;
      readonly outcome: OutcomeClass;
      readonly kind?: FailureKind;
      /** A waiting transfer's sub-state (issue 29). */
      readonly subState?: ProviderSubState;
      readonly reason?: string;
      /** The transfer failed for the account's balance (issue 32). */
      readonly shortOfFunds?: boolean;
      readonly status?: string;
      readonly code?: string;
    }
  | undefined;

export function findV2Row(
  table: V2OutcomeTable,
  http: number,
  code: string | undefined,
  message: string | undefined,
): V2OutcomeRow | undefined {
  const rows = table.filter((r) => r.http === http);
  // A batch names the entry it refuses (`transfers[3].transfer_amount_invalid`); tables say `[i]`.
  code = code?.replace(/\[\d+\]/g, '[i]');
  const msg = message === undefined ? '' : normaliseMessage(message);
  return (
    rows.find((r) => r.code !== undefined && r.code === code) ??
    rows.find((r) => r.code === undefined && r.message !== undefined && msg.includes(r.message)) ??
    rows.find((r) => r.code === undefined && r.message === undefined)
  );
}

export function classifyV2<D>(
  table: V2OutcomeTable,
  answer: HttpAnswer,
  decode: V2Decoder<D>,
): Classified<D> {
  const base: WireFacts = { httpStatus: answer.statusCode };
  if (answer.statusCode === 429) {
    const ms = retryAfterMs(answer);
    return {
      outcome: 'retry-safe',
      reason: 'Rate limited by the provider',
      ...(ms === undefined ? {} : { retryAfterMs: ms }),
      wire: base,
    };
  }
  const json = parseJson(answer.body);
  if (answer.statusCode >= 200 && answer.statusCode < 300) {
    const decoded = json.ok ? decode(json.value) : undefined;
    if (!decoded) return { outcome: 'unknown', reason: 'Success without a readable payload', wire: base };
    const wire: WireFacts = { ...base, status: decoded.status, code: decoded.code };
    return fromDecoded(
      decoded.outcome,
      decoded.data,
      decoded.kind,
      decoded.reason ?? 'Transfer status',
      wire,
      decoded.subState,
      decoded.shortOfFunds === true,
    );
  }
  const err = json.ok ? errorSchema.safeParse(json.value) : undefined;
  const e = err?.success ? err.data : {};
  const wire: WireFacts = { ...base, code: e.code, message: e.message };
  if (saysAlreadyExists(e.message) || saysAlreadyExists(e.code)) {
    return { outcome: 'failed', kind: 'duplicate', reason: 'Already exists at the provider', wire };
  }
  const row = findV2Row(table, answer.statusCode, e.code, e.message);
  if (!row) {
    const reason = answer.statusCode >= 500 ? 'Server error' : 'Undocumented answer';
    return { outcome: 'unknown', reason, wire };
  }
  switch (row.outcome) {
    case 'failed':
      return { outcome: 'failed', kind: row.kind ?? 'rejected', reason: row.meaning, wire };
    case 'retry-safe': {
      const ms = retryAfterMs(answer);
      return {
        outcome: 'retry-safe',
        reason: row.meaning,
        ...(ms === undefined ? {} : { retryAfterMs: ms }),
        wire,
      };
    }
    case 'success':
    case 'pending':
    case 'unknown':
      return { outcome: 'unknown', reason: row.meaning, wire };
    case 'auth-refresh':
    case 'fatal-config':
      return { outcome: row.outcome, reason: row.meaning, wire };
  }
}
