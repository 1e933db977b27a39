import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { JsonDecimal, writeJson, type JsonValue } from '../core/decimal.js';
import {
  amount,
  check,
  firstRefusal,
  ID_PATTERN,
  IFSC_PATTERN,
  matches,
  oneOf,
  REMARKS_PATTERN,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyV2 } from '../core/v2-classify.js';
import { transferV2Outcomes } from './transfer-v2.outcomes.js';
import { decodeV2Transfer, type V2Transfer } from './v2-transfer.js';

/** `transfer_mode` values of Transfers V2 (provider-v2.md); `banktransfer` is the default. */
export const V2_TRANSFER_MODES = [
  'banktransfer',
  'imps',
  'neft',
  'rtgs',
  'upi',
  'paytm',
  'amazonpay',
  'card',
  'cardupi',
] as const;
export type V2TransferMode = (typeof V2_TRANSFER_MODES)[number];

/** A registered beneficiary (standard transfer), or one named inline (direct transfer). */
export type V2Beneficiary =
  | { readonly beneficiaryId: string }
  | {
      readonly name: string;
      readonly bankAccount?: string;
      readonly ifsc?: string;
      readonly vpa?: string;
      readonly email?: string;
      readonly phone?: string;
      readonly address?: string;
    };

export interface TransferV2Request {
  readonly transferId: string;
  /** Decimal string, at least 1.00, at most two places; written as a JSON number, never via a float. */
  readonly amount: string;
  readonly transferMode?: V2TransferMode;
  readonly beneficiary: V2Beneficiary;
  readonly remarks?: string;
  readonly fundsourceId?: string;
}

const BANK_MODES: readonly string[] = ['banktransfer', 'imps', 'neft', 'rtgs'];
const NAME_PATTERN = /^[A-Za-z ]+$/;
const ACCOUNT_PATTERN = /^[A-Za-z0-9]{9,18}$/;
const VPA_PATTERN = /^[A-Za-z0-9._-]+@[A-Za-z0-9._]+$/;
const INSTRUMENT = 'beneficiary_details.beneficiary_instrument_details';

const inline = (r: TransferV2Request) => ('beneficiaryId' in r.beneficiary ? undefined : r.beneficiary);
const beneId = (r: TransferV2Request) =>
  'beneficiaryId' in r.beneficiary ? r.beneficiary.beneficiaryId : undefined;

/** The instrument the mode needs, when the beneficiary is named inline. */
function hasInstrument(r: TransferV2Request): boolean {
  const d = inline(r);
  if (!d) return true;
  const mode = r.transferMode ?? 'banktransfer';
  if (BANK_MODES.includes(mode)) return Boolean(d.bankAccount && d.ifsc);
  if (mode === 'upi') return Boolean(d.vpa);
  return false;
}

/** Field rules as the provider states them, so a request it would refuse is never sent. */
export const transferV2Rules: readonly FieldRule<TransferV2Request>[] = [
  required((r) => r.transferId, 'transfer_id_missing', 'transfer_id is missing in the request'),
  matches((r) => r.transferId, ID_PATTERN, 40, 'transfer_id_invalid', 'transfer_id is invalid'),
  required((r) => r.amount, 'transfer_amount_missing', 'transfer_amount is missing in the request'),
  amount((r) => r.amount, '1.00', 'transfer_amount_invalid', 'transfer_amount should be at least 1.00'),
  oneOf((r) => r.transferMode, V2_TRANSFER_MODES, 'transfer_mode_invalid', 'transfer_mode is invalid'),
  matches(
    beneId,
    /^[A-Za-z0-9_|.]+$/,
    50,
    'beneficiary_details.beneficiary_id_invalid',
    'beneficiary_id is invalid',
  ),
  check(
    (r) => beneId(r) !== undefined || Boolean(inline(r)?.name),
    'beneficiary_details.beneficiary_name_invalid',
    'beneficiary_name is required without a beneficiary_id',
  ),
  matches(
    (r) => inline(r)?.name,
    NAME_PATTERN,
    100,
    'beneficiary_details.beneficiary_name_invalid',
    'beneficiary_name should contain only letters and spaces',
  ),
  matches(
    (r) => inline(r)?.bankAccount,
    ACCOUNT_PATTERN,
    18,
    `${INSTRUMENT}.bank_account_number_invalid`,
    'bank_account_number is invalid',
  ),
  matches(
    (r) => inline(r)?.ifsc,
    IFSC_PATTERN,
    11,
    `${INSTRUMENT}.bank_ifsc_invalid`,
    'bank_ifsc is invalid',
  ),
  matches((r) => inline(r)?.vpa, VPA_PATTERN, 100, `${INSTRUMENT}.vpa_invalid`, 'vpa is invalid'),
  check(
    hasInstrument,
    `${INSTRUMENT}.bank_account_number_invalid`,
    'the transfer mode needs bank account and IFSC (bank modes) or a VPA (upi)',
  ),
  matches((r) => r.remarks, REMARKS_PATTERN, 70, 'transfer_remarks_invalid', 'transfer_remarks is invalid'),
];

/** The request body of one transfer, shared with the batch entries. */
export function transferV2Body(r: TransferV2Request): { readonly [k: string]: JsonValue } {
  const d = inline(r);
  const id = beneId(r);
  const contact =
    d && (d.email || d.phone || d.address)
      ? {
          beneficiary_email: d.email,
          beneficiary_phone: d.phone,
          beneficiary_address: d.address,
        }
      : undefined;
  return {
    transfer_id: r.transferId,
    transfer_amount: new JsonDecimal(r.amount),
    transfer_currency: 'INR',
    transfer_mode: r.transferMode,
    beneficiary_details: d
      ? {
          beneficiary_name: d.name,
          beneficiary_instrument_details: {
            bank_account_number: d.bankAccount,
            bank_ifsc: d.ifsc,
            vpa: d.vpa,
          },
          beneficiary_contact_details: contact,
        }
      : { beneficiary_id: id },
    transfer_remarks: r.remarks,
    fundsource_id: r.fundsourceId,
  };
}

/** Standard Transfer V2: `POST /payout/transfers` with a beneficiary id or inline details. */
export const transferV2Adapter: EndpointAdapter<TransferV2Request, V2Transfer> = {
  name: 'transferV2',
  method: 'POST',
  path: '/payout/transfers',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'transfer',
  // The same provider endpoint as the transfer-token form: one budget.
  rateKey: 'processValidatedPayout',
  validate: (r) => firstRefusal(r, transferV2Rules),
  // Personal data a provider message may echo; cut from diagnostics before anything is logged.
  secrets: (r) => [inline(r)?.bankAccount, inline(r)?.vpa, inline(r)?.phone, inline(r)?.email],
  build: (r) => ({ body: writeJson(transferV2Body(r)) }),
  classify: (answer) => classifyV2(transferV2Outcomes, answer, decodeV2Transfer),
};
