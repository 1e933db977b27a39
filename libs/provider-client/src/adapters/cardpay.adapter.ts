import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { writeJson } from '../core/decimal.js';
import {
  amount,
  firstRefusal,
  ID_WITH_HYPHEN_PATTERN,
  matches,
  oneOf,
  REMARKS_PATTERN,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { decodeLegacyTransfer, type LegacyTransferResult } from './legacy-decoders.js';
import { cardpayOutcomes } from './cardpay.outcomes.js';

export interface CardpayRequest {
  /** Card token: a secret, never logged. */
  readonly token: string;
  /** Decimal string, at least 1.00. The provider takes it as a JSON string. */
  readonly amount: string;
  readonly transferId: string;
  readonly cardType?: 'DEBIT' | 'CREDIT';
  readonly remarks?: string;
  readonly name?: string;
  readonly networkType?: 'VISA' | 'MASTERCARD';
  /** Secret, never logged. */
  readonly cryptogram?: string;
  readonly tokenExpiry?: string;
  readonly tokenPANSequenceNumber?: string;
}

const rules: readonly FieldRule<CardpayRequest>[] = [
  required((r) => r.token, '422', 'Invalid token details'),
  required((r) => r.amount, '422', 'Invalid amount: at least 1.0'),
  required((r) => r.transferId, '422', 'transferId missing in the request'),
  amount((r) => r.amount, '1.00', '422', 'Invalid amount: at least 1.0'),
  matches(
    (r) => r.transferId,
    ID_WITH_HYPHEN_PATTERN,
    40,
    '422',
    'transferId can contain only letters, digits, hyphen and underscore',
  ),
  oneOf((r) => r.cardType, ['DEBIT', 'CREDIT'], '422', 'Invalid cardType'),
  oneOf((r) => r.networkType, ['VISA', 'MASTERCARD'], '422', 'Invalid networkType'),
  matches(
    (r) => r.remarks,
    REMARKS_PATTERN,
    70,
    '422',
    'Invalid remarks: max 70 letters, digits or whitespace',
  ),
  matches((r) => r.cryptogram, /^[\s\S]*$/, 600, '422', 'Invalid token details: cryptogram longer than 600'),
  matches(
    (r) => r.tokenExpiry,
    /^\d{4}-\d{2}$/,
    10,
    '422',
    'Invalid token details: tokenExpiry must be YYYY-MM',
  ),
  matches(
    (r) => r.tokenPANSequenceNumber,
    /^[A-Za-z0-9]{1,3}$/,
    3,
    '422',
    'Invalid token details: tokenPANSequenceNumber',
  ),
];

export const cardpayAdapter: EndpointAdapter<CardpayRequest, LegacyTransferResult> = {
  name: 'cardpay',
  method: 'POST',
  path: '/payout/v1/cardpay',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'transfer',
  validate: (r) => firstRefusal(r, rules),
  secrets: (r) => [r.token, r.cryptogram],
  build: (r) => ({
    body: writeJson({
      token: r.token,
      amount: r.amount,
      transferId: r.transferId,
      // The provider defaults to CREDIT; sending it explicitly keeps the ledger's hash honest.
      cardType: r.cardType ?? 'CREDIT',
      remarks: r.remarks,
      name: r.name,
      networkType: r.networkType,
      cryptogram: r.cryptogram,
      tokenExpiry: r.tokenExpiry,
      tokenPANSequenceNumber: r.tokenPANSequenceNumber,
    }),
  }),
  classify: (answer) => classifyLegacy(cardpayOutcomes, answer, decodeLegacyTransfer),
};
