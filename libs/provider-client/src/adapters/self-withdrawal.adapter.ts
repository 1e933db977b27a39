import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import {
  amount,
  firstRefusal,
  matches,
  REMARKS_PATTERN,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { JsonDecimal, writeJson } from '../core/decimal.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { selfWithdrawalOutcomes } from './self-withdrawal.outcomes.js';

export interface SelfWithdrawalRequest {
  readonly withdrawalId: string;
  /** Decimal string, sent as a JSON number. */
  readonly amount: string;
  readonly remarks?: string;
}

/** The provider's message carries the withdrawal id; the status is only in the dashboard. */
export interface SelfWithdrawalResult {
  readonly message: string;
}

const rules: readonly FieldRule<SelfWithdrawalRequest>[] = [
  required((r) => r.withdrawalId, '412', 'withdrawalId missing in the request'),
  required((r) => r.amount, '422', 'amount missing in the request'),
  amount((r) => r.amount, '0.01', '422', 'Invalid amount'),
  matches((r) => r.remarks, REMARKS_PATTERN, 70, '422', 'Invalid remarks'),
];

export const selfWithdrawalAdapter: EndpointAdapter<SelfWithdrawalRequest, SelfWithdrawalResult> = {
  name: 'selfWithdrawal',
  method: 'POST',
  path: '/payout/v1/selfWithdrawal',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, rules),
  build: (r) => ({
    body: writeJson({ withdrawalId: r.withdrawalId, amount: new JsonDecimal(r.amount), remarks: r.remarks }),
  }),
  // `{}` is a listed answer with no stated meaning: it has no status, so it classifies `unknown`.
  classify: (answer) =>
    classifyLegacy(selfWithdrawalOutcomes, answer, (env) => ({ data: { message: env.message ?? '' } })),
};
