import { z } from 'zod';
import { maskFreeText } from '#observability';
import { type LegacyDecoder } from '../core/legacy-classify.js';
import { type ProviderSubState } from '#contracts';
import { type FailureKind, type OutcomeClass } from '../core/outcome.js';
import { subStateOf, transferStatusMeaning } from '../core/transfer-statuses.js';

const idString = z.union([z.string(), z.number()]).transform((v) => String(v));

/**
 * The provider's free text about a transfer (a status description, a failure reason): it may
 * quote an account number, an e-mail address or a VPA, so they are masked here, where it enters
 * our code, before any event, log line or row sees it.
 */
const providerText = z
  .string()
  .nullish()
  .transform((v) => (typeof v === 'string' ? maskFreeText(v) : v));

/** `data` of requestTransfer, directTransfer and cardpay. */
export interface LegacyTransferResult {
  readonly referenceId: string;
  readonly utr: string;
  readonly acknowledged: boolean;
}

const transferResultSchema = z.object({
  referenceId: idString,
  utr: z.string().nullish(),
  acknowledged: z.union([z.number(), z.string(), z.boolean()]).nullish(),
});

export const decodeLegacyTransfer: LegacyDecoder<LegacyTransferResult> = (env) => {
  const p = transferResultSchema.safeParse(env.data);
  if (!p.success) return undefined;
  const ack = p.data.acknowledged;
  return {
    data: {
      referenceId: p.data.referenceId,
      utr: p.data.utr ?? '',
      acknowledged: ack === 1 || ack === '1' || ack === true,
    },
  };
};

/** Decodes `data` with a schema; no override of the row's outcome. */
export function dataDecoder<T>(schema: z.ZodType<T>): LegacyDecoder<T> {
  return (env) => {
    const p = schema.safeParse(env.data);
    return p.success ? { data: p.data } : undefined;
  };
}

/**
 * How a status answer about a transfer is classified: by the transfer's own status (any case) and
 * status_code, through the one table the connector reads too (core/transfer-statuses.ts). An
 * unlisted status is `unknown` (in doubt), kept raw.
 */
export function outcomeOfStatus(
  status: string,
  code?: string | null,
): {
  readonly outcome: OutcomeClass;
  readonly kind?: FailureKind;
  readonly subState?: ProviderSubState;
  readonly reason: string;
  readonly shortOfFunds?: true;
} {
  const m = transferStatusMeaning(status, code);
  const subState = subStateOf(m);
  return {
    outcome: m.outcome,
    ...(m.outcome === 'failed' ? { kind: m.kind } : {}),
    ...(m.outcome === 'failed' && m.shortOfFunds ? { shortOfFunds: m.shortOfFunds } : {}),
    ...(subState ? { subState } : {}),
    reason: m.meaning,
  };
}

export { idString, providerText };
