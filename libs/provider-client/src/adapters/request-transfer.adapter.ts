import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { JsonDecimal, writeJson } from '../core/decimal.js';
import {
  ALNUM_PATTERN,
  amount,
  firstRefusal,
  ID_PATTERN,
  matches,
  oneOf,
  REMARKS_PATTERN,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { decodeLegacyTransfer, type LegacyTransferResult } from './legacy-decoders.js';
import { requestTransferOutcomes } from './request-transfer.outcomes.js';
import { LEGACY_TRANSFER_MODES, type LegacyTransferMode } from './transfer-modes.js';

export interface RequestTransferRequest {
  readonly beneId: string;
  /** Decimal string, at least 1.00, at most two places. Sent as a JSON number. */
  readonly amount: string;
  readonly transferId: string;
  readonly transferMode?: LegacyTransferMode;
  readonly paymentInstrumentId?: string;
  readonly remarks?: string;
}

const rules: readonly FieldRule<RequestTransferRequest>[] = [
  required((r) => r.beneId, '412', 'beneId missing in the request'),
  required((r) => r.amount, '412', 'amount missing in the request'),
  required((r) => r.transferId, '412', 'transferId missing in the request'),
  matches((r) => r.beneId, ALNUM_PATTERN, 100, '422', 'Invalid beneId'),
  amount((r) => r.amount, '1.00', '422', 'Invalid amount: at least 1.00 with at most 2 decimal places'),
  matches((r) => r.transferId, ID_PATTERN, 40, '422', 'Invalid transferId'),
  oneOf((r) => r.transferMode, LEGACY_TRANSFER_MODES, '412', 'Invalid transfer mode'),
  matches(
    (r) => r.remarks,
    REMARKS_PATTERN,
    70,
    '422',
    'Invalid remarks: max 70 letters, digits or whitespace',
  ),
];

export const requestTransferAdapter: EndpointAdapter<RequestTransferRequest, LegacyTransferResult> = {
  name: 'requestTransfer',
  method: 'POST',
  path: '/payout/v1.2/requestTransfer',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'transfer',
  validate: (r) => firstRefusal(r, rules),
  build: (r) => ({
    body: writeJson({
      beneId: r.beneId,
      amount: new JsonDecimal(r.amount),
      transferId: r.transferId,
      transferMode: r.transferMode,
      paymentInstrumentId: r.paymentInstrumentId,
      remarks: r.remarks,
    }),
  }),
  classify: (answer) => classifyLegacy(requestTransferOutcomes, answer, decodeLegacyTransfer),
};
