import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import {
  ALNUM_PATTERN,
  check,
  DATE_PATTERN,
  firstRefusal,
  matches,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { dataDecoder } from './legacy-decoders.js';
import { beneHistoryOutcomes } from './bene-history.outcomes.js';

export interface BeneHistoryRequest {
  readonly beneId: string;
  /** yyyy-mm-dd */
  readonly startDate?: string;
  /** yyyy-mm-dd; required with startDate; at least one day before today. */
  readonly endDate?: string;
  readonly perPage?: number;
  readonly page?: number;
}

const schema = z.object({
  transfers: z
    .array(
      z.object({
        transferDate: z.string(),
        amount: z.union([z.string(), z.number()]).transform((v) => String(v)),
        mode: z.string(),
        beneId: z.string(),
        status: z.string(),
      }),
    )
    .default([]),
});

export type BeneHistory = z.infer<typeof schema>;

const todayUtc = (): string => new Date().toISOString().slice(0, 10);
const intIn = (v: number | undefined, min: number, max: number): boolean =>
  v === undefined || (Number.isInteger(v) && v >= min && v <= max);

const rules: readonly FieldRule<BeneHistoryRequest>[] = [
  required((r) => r.beneId, '422', 'Invalid beneficiary id'),
  matches((r) => r.beneId, ALNUM_PATTERN, 100, '422', 'Invalid beneficiary id'),
  matches((r) => r.startDate, DATE_PATTERN, 10, '422', 'startDate must be in yyyy-mm-dd format'),
  matches((r) => r.endDate, DATE_PATTERN, 10, '422', 'endDate must be in yyyy-mm-dd format'),
  check((r) => !r.startDate || Boolean(r.endDate), '422', 'endDate is mandatory when startDate is given'),
  check((r) => !r.startDate || !r.endDate || r.startDate <= r.endDate, '422', 'startDate is after endDate'),
  // ISO dates compare correctly as strings.
  check(
    (r) => !r.endDate || r.endDate < todayUtc(),
    '422',
    'Invalid date range: endDate must be before today',
  ),
  check((r) => intIn(r.perPage, 1, 25), '422', 'perPage must be at most 25'),
  check((r) => intIn(r.page, 1, Number.MAX_SAFE_INTEGER), '422', 'page must be at least 1'),
];

export const beneHistoryAdapter: EndpointAdapter<BeneHistoryRequest, BeneHistory> = {
  name: 'beneHistory',
  method: 'GET',
  path: '/payout/v1/beneHistory',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, rules),
  build: (r) => {
    const q: Record<string, string> = { beneId: r.beneId };
    if (r.startDate) q['startDate'] = r.startDate;
    if (r.endDate) q['endDate'] = r.endDate;
    if (r.perPage !== undefined) q['perPage'] = String(r.perPage);
    if (r.page !== undefined) q['page'] = String(r.page);
    return { query: q };
  },
  classify: (answer) => classifyLegacy(beneHistoryOutcomes, answer, dataDecoder(schema)),
};
