import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import {
  ALNUM_PATTERN,
  check,
  firstRefusal,
  IFSC_PATTERN,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { dataDecoder } from './legacy-decoders.js';
import { getBeneIdOutcomes } from './get-bene-id.outcomes.js';

export interface GetBeneIdRequest {
  readonly bankAccount: string;
  readonly ifsc: string;
}

export interface GetBeneIdResult {
  readonly beneId: string;
}

const rules: readonly FieldRule<GetBeneIdRequest>[] = [
  required((r) => r.bankAccount, '422', 'Both bankAccount and ifsc are required'),
  required((r) => r.ifsc, '422', 'Both bankAccount and ifsc are required'),
  check(
    (r) => ALNUM_PATTERN.test(r.bankAccount) && r.bankAccount.length >= 6 && r.bankAccount.length <= 40,
    '422',
    'Invalid bank account and IFSC',
  ),
  check((r) => IFSC_PATTERN.test(r.ifsc), '422', 'Invalid IFSC'),
];

export const getBeneIdAdapter: EndpointAdapter<GetBeneIdRequest, GetBeneIdResult> = {
  name: 'getBeneId',
  method: 'GET',
  path: '/payout/v1/getBeneId',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, rules),
  // A provider message may quote the account asked about: scrubbed whole, letters and all.
  secrets: (r) => [r.bankAccount],
  build: (r) => ({ query: { bankAccount: r.bankAccount, ifsc: r.ifsc } }),
  classify: (answer) =>
    classifyLegacy(getBeneIdOutcomes, answer, dataDecoder(z.object({ beneId: z.string() }))),
};
