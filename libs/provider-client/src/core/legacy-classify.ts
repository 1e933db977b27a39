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

/**
 * One documented row of a legacy error table. `message` is a case-insensitive fragment; a row
 * without it covers every other message with the same status and subCode.
 */
export interface LegacyOutcomeRow {
  readonly status: 'SUCCESS' | 'PENDING' | 'ERROR';
  readonly subCode: number;
  readonly message?: string;
  readonly outcome: OutcomeClass;
  readonly kind?: FailureKind;
  /** A `failed` row that refuses for the account's balance (issue 32: counted, as a bounce). */
  readonly shortOfFunds?: true;
  /** A `pending` row's wait at the provider, in the service's words (issue 29). */
  readonly subState?: ProviderSubState;
  /** HTTP status the provider is seen to use for this row (tests answer with it); not matched on. */
  readonly http?: number;
  readonly meaning: string;
}

export type LegacyOutcomeTable = readonly LegacyOutcomeRow[];

/** Rows every bearer-token endpoint can answer (interface document, "Common"). */
export const COMMON_LEGACY_ROWS: LegacyOutcomeTable = [
  {
    status: 'ERROR',
    subCode: 403,
    message: 'token is not valid',
    outcome: 'auth-refresh',
    http: 403,
    meaning: 'Token is not valid',
  },
  {
    status: 'ERROR',
    subCode: 403,
    message: 'ip not whitelisted',
    outcome: 'fatal-config',
    http: 403,
    meaning: 'IP not whitelisted',
  },
  {
    status: 'ERROR',
    subCode: 403,
    message: 'not enabled',
    outcome: 'fatal-config',
    http: 403,
    meaning: 'APIs not enabled for the account',
  },
  {
    status: 'ERROR',
    subCode: 412,
    message: 'token missing',
    outcome: 'auth-refresh',
    http: 412,
    meaning: 'Token missing in the request',
  },
  { status: 'ERROR', subCode: 429, outcome: 'retry-safe', http: 429, meaning: 'Too many requests' },
  {
    status: 'ERROR',
    subCode: 405,
    outcome: 'fatal-config',
    http: 405,
    meaning: 'Invalid URL or HTTP method',
  },
  { status: 'ERROR', subCode: 520, outcome: 'unknown', http: 520, meaning: 'Unknown error' },
];

const envelopeSchema = z.object({
  status: z.string(),
  subCode: z.union([z.string(), z.number()]).optional(),
  statusCode: z.union([z.string(), z.number()]).optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

export type LegacyEnvelope = z.infer<typeof envelopeSchema> & {
  readonly statusUpper: string;
  readonly code: string;
};

/**
 * Reads the payload of a success or pending answer. It may override the row's outcome: a status
 * query answers SUCCESS ("data retrieved") about a transfer that FAILED.
 */
export type LegacyDecoder<D> = (env: LegacyEnvelope) =>
  | {
      readonly data: D;
      readonly outcome?: OutcomeClass;
      readonly kind?: FailureKind;
      readonly subState?: ProviderSubState;
      readonly reason?: string;
      /** The transfer failed for the account's balance (a status answer's own words). */
      readonly shortOfFunds?: boolean;
    }
  | undefined;

export function findLegacyRow(
  table: LegacyOutcomeTable,
  status: string,
  subCode: string,
  message: string | undefined,
): LegacyOutcomeRow | undefined {
  const candidates = table.filter((r) => r.status === status && String(r.subCode) === subCode);
  const msg = message === undefined ? '' : normaliseMessage(message);
  return (
    candidates.find((r) => r.message !== undefined && msg.includes(r.message)) ??
    candidates.find((r) => r.message === undefined)
  );
}

/** Legacy answers carry their meaning in the body, whatever the HTTP status (errors come with 200 too). */
export function classifyLegacy<D>(
  table: LegacyOutcomeTable,
  answer: HttpAnswer,
  decode: LegacyDecoder<D>,
): Classified<D> {
  const base: WireFacts = { httpStatus: answer.statusCode };
  if (answer.statusCode === 429) {
    return {
      outcome: 'retry-safe',
      reason: 'Rate limited by the provider',
      ...retryAfter(answer),
      wire: base,
    };
  }
  const json = parseJson(answer.body);
  const parsed = json.ok ? envelopeSchema.safeParse(json.value) : undefined;
  if (!parsed?.success) {
    const reason =
      answer.statusCode >= 500 ? 'Server error without a readable body' : 'Unreadable answer body';
    return { outcome: 'unknown', reason, wire: base };
  }
  const e = parsed.data;
  const code = e.subCode ?? e.statusCode;
  const env: LegacyEnvelope = {
    ...e,
    statusUpper: e.status.toUpperCase(),
    code: code === undefined ? '' : String(code),
  };
  const wire: WireFacts = { ...base, status: env.statusUpper, subCode: env.code, message: e.message };
  if (env.statusUpper === 'ERROR' && saysAlreadyExists(e.message)) {
    // Whatever the code: a table row for another message of that code must not turn it into a failure.
    return { outcome: 'failed', kind: 'duplicate', reason: 'Already exists at the provider', wire };
  }
  const row = findLegacyRow(table, env.statusUpper, env.code, e.message);
  if (!row) return { outcome: 'unknown', reason: 'Undocumented answer', wire };
  switch (row.outcome) {
    case 'success':
    case 'pending': {
      const decoded = decode(env);
      if (!decoded) {
        return row.outcome === 'pending'
          ? { outcome: 'pending', ...(row.subState ? { subState: row.subState } : {}), wire }
          : { outcome: 'unknown', reason: 'Success without a readable payload', wire };
      }
      // A decoder that reads the outcome from the payload (a status query) says the wait itself.
      const outcome = decoded.outcome ?? row.outcome;
      const subState = decoded.outcome === undefined ? row.subState : decoded.subState;
      return fromDecoded(
        outcome,
        decoded.data,
        decoded.kind,
        decoded.reason ?? row.meaning,
        wire,
        subState,
        decoded.outcome !== undefined && decoded.shortOfFunds === true,
      );
    }
    case 'failed':
      return {
        outcome: 'failed',
        kind: row.kind ?? 'rejected',
        reason: row.meaning,
        ...(row.shortOfFunds ? { shortOfFunds: true as const } : {}),
        wire,
      };
    case 'retry-safe':
      return { outcome: 'retry-safe', reason: row.meaning, ...retryAfter(answer), wire };
    case 'unknown':
    case 'auth-refresh':
    case 'fatal-config':
      return { outcome: row.outcome, reason: row.meaning, wire };
  }
}

export function fromDecoded<D>(
  outcome: OutcomeClass,
  data: D,
  kind: FailureKind | undefined,
  reason: string,
  wire: WireFacts,
  subState?: ProviderSubState,
  shortOfFunds = false,
): Classified<D> {
  switch (outcome) {
    case 'success':
      return { outcome, data, wire };
    case 'pending':
      return { outcome, data, ...(subState ? { subState } : {}), wire };
    case 'failed':
      return {
        outcome,
        kind: kind ?? 'rejected',
        reason,
        ...(shortOfFunds ? { shortOfFunds: true as const } : {}),
        data,
        wire,
      };
    case 'unknown':
      return { outcome, reason, data, wire };
    case 'retry-safe':
    case 'auth-refresh':
    case 'fatal-config':
      return { outcome, reason, wire };
  }
}

function retryAfter(answer: HttpAnswer): { retryAfterMs?: number } {
  const ms = retryAfterMs(answer);
  return ms === undefined ? {} : { retryAfterMs: ms };
}
