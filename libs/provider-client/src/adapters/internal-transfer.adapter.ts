import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { JsonDecimal, writeJson } from '../core/decimal.js';
import {
  ALNUM_PATTERN,
  amount,
  firstRefusal,
  ID_WITH_HYPHEN_PATTERN,
  matches,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { dataDecoder } from './legacy-decoders.js';
import { internalTransferOutcomes } from './internal-transfer.outcomes.js';

export interface InternalTransferRequest {
  /** Decimal string, at least 1. Sent as a JSON number. */
  readonly amount: string;
  readonly rechargeAccount: string;
  /**
   * Optional for the provider, which then invents one. Pass it anyway: without our own id a lost
   * answer cannot be checked and a re-send would move the money twice.
   */
  readonly transferId?: string;
}

export interface InternalTransferResult {
  readonly transferId: string;
}

const rules: readonly FieldRule<InternalTransferRequest>[] = [
  required((r) => r.amount, '422', 'amount missing in the request'),
  amount((r) => r.amount, '1', '422', 'Invalid amount: at least 1'),
  required((r) => r.rechargeAccount, '422', 'rechargeAccount missing in the request'),
  matches((r) => r.rechargeAccount, ALNUM_PATTERN, 100, '422', 'Invalid rechargeAccount'),
  matches((r) => r.transferId, ID_WITH_HYPHEN_PATTERN, 40, '422', 'Invalid transferId'),
];

export const internalTransferAdapter: EndpointAdapter<InternalTransferRequest, InternalTransferResult> = {
  name: 'internalTransfer',
  method: 'POST',
  path: '/payout/v1/internalTransfer',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, rules),
  build: (r) => ({
    body: writeJson({
      amount: new JsonDecimal(r.amount),
      rechargeAccount: r.rechargeAccount,
      transferId: r.transferId,
    }),
  }),
  classify: (answer) =>
    classifyLegacy(internalTransferOutcomes, answer, dataDecoder(z.object({ transferId: z.string() }))),
};
