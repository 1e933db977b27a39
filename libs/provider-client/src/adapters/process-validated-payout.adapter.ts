import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { writeJson } from '../core/decimal.js';
import { amount, firstRefusal, matches, oneOf, required, type FieldRule } from '../core/field-rules.js';
import { classifyV2 } from '../core/v2-classify.js';
import { processValidatedPayoutOutcomes } from './process-validated-payout.outcomes.js';
import { decodeV2Transfer, type V2Transfer } from './v2-transfer.js';

export interface ProcessValidatedPayoutRequest {
  readonly transferId: string;
  /** Decimal string; the v2 API takes it as a JSON string. */
  readonly transferAmount: string;
  /** Single-use secret from Validate Payout; never logged. */
  readonly transferToken: string;
  readonly transferMode?: 'upi';
  readonly transferRemarks?: string;
  readonly fundsourceId?: string;
}

const rules: readonly FieldRule<ProcessValidatedPayoutRequest>[] = [
  required((r) => r.transferId, 'invalid_transfer_id', 'transfer_id is required'),
  matches((r) => r.transferId, /^[A-Za-z0-9_-]+$/, 40, 'invalid_transfer_id', 'transfer_id is invalid'),
  required((r) => r.transferToken, 'transfer_token_invalid', 'transfer_token is required'),
  required((r) => r.transferAmount, 'invalid_request', 'transfer_amount is required'),
  amount((r) => r.transferAmount, '0.01', 'invalid_request', 'transfer_amount is invalid'),
  oneOf(
    (r) => r.transferMode,
    ['upi'],
    'transfer_mode_with_transfer_token_invalid',
    'transfer_mode must be upi with a transfer token',
  ),
];

export const processValidatedPayoutAdapter: EndpointAdapter<ProcessValidatedPayoutRequest, V2Transfer> = {
  name: 'processValidatedPayout',
  method: 'POST',
  path: '/payout/transfers',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'transfer',
  validate: (r) => firstRefusal(r, rules),
  secrets: (r) => [r.transferToken],
  build: (r) => ({
    body: writeJson({
      transfer_amount: r.transferAmount,
      transfer_id: r.transferId,
      transfer_token: r.transferToken,
      transfer_mode: r.transferMode ?? 'upi',
      transfer_remarks: r.transferRemarks,
      fundsource_id: r.fundsourceId,
    }),
  }),
  classify: (answer) => classifyV2(processValidatedPayoutOutcomes, answer, decodeV2Transfer),
};
