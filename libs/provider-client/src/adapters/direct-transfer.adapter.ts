import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { JsonDecimal, writeJson } from '../core/decimal.js';
import {
  amount,
  check,
  firstRefusal,
  ID_PATTERN,
  IFSC_PATTERN,
  matches,
  oneOf,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { decodeLegacyTransfer, type LegacyTransferResult } from './legacy-decoders.js';
import { directTransferOutcomes } from './direct-transfer.outcomes.js';
import { LEGACY_TRANSFER_MODES, type LegacyTransferMode } from './transfer-modes.js';

export interface BeneDetails {
  readonly name?: string;
  readonly phone?: string;
  readonly email?: string;
  readonly address1?: string;
  readonly bankAccount?: string;
  readonly ifsc?: string;
  readonly vpa?: string;
}

export interface DirectTransferRequest {
  /** Decimal string, at least 1.00, at most two places. Sent as a JSON number. */
  readonly amount: string;
  readonly transferId: string;
  readonly transferMode?: LegacyTransferMode;
  readonly beneDetails: BeneDetails;
  readonly paymentInstrumentId?: string;
}

const hasInstrument = (r: DirectTransferRequest): boolean => {
  const d = r.beneDetails;
  return Boolean(d && (d.vpa || (d.bankAccount && d.ifsc) || d.phone));
};

const rules: readonly FieldRule<DirectTransferRequest>[] = [
  required((r) => r.amount, '412', 'amount missing in the request'),
  required((r) => r.transferId, '412', 'transferId missing in the request'),
  amount((r) => r.amount, '1.00', '422', 'Invalid amount: at least 1.00 with at most 2 decimal places'),
  matches((r) => r.transferId, ID_PATTERN, 40, '422', 'Invalid transferId'),
  oneOf((r) => r.transferMode, LEGACY_TRANSFER_MODES, '412', 'Invalid transfer mode'),
  check(hasInstrument, '422', 'Invalid beneficiary details'),
  matches((r) => r.beneDetails.ifsc, IFSC_PATTERN, 11, '422', 'Invalid IFSC'),
];

export const directTransferAdapter: EndpointAdapter<DirectTransferRequest, LegacyTransferResult> = {
  name: 'directTransfer',
  method: 'POST',
  path: '/payout/v1.2/directTransfer',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'transfer',
  validate: (r) => firstRefusal(r, rules),
  // A provider message may quote the payee's details: scrubbed whole, not only their digit runs.
  secrets: (r) => [r.beneDetails.bankAccount, r.beneDetails.vpa, r.beneDetails.phone, r.beneDetails.email],
  build: (r) => ({
    body: writeJson({
      amount: new JsonDecimal(r.amount),
      transferId: r.transferId,
      transferMode: r.transferMode,
      beneDetails: { ...r.beneDetails },
      paymentInstrumentId: r.paymentInstrumentId,
    }),
  }),
  classify: (answer) => classifyLegacy(directTransferOutcomes, answer, decodeLegacyTransfer),
};
