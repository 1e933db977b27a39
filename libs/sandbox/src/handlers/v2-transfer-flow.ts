import { parseAmount, rupees, type Paise } from '../core/money.js';
import { type Beneficiary } from '../core/state.js';
import {
  bankOutcome,
  CARD_TOKENS,
  FAILING_WALLET_PHONE,
  IFSC_RE,
  vpaOutcome,
  type Outcome,
} from '../core/test-data.js';
import { type V2Row } from '../tables/row.js';
import { type V2TransferFieldRows } from '../tables/transfer-v2.table.js';
import { failV2, V2_COMMON } from '../tables/v2-common.table.js';
import { type Obj } from './endpoint.js';
import { REMARKS_RE, TRANSFER_ID_RE } from './transfer-flow.js';

/**
 * The v2 transfer shape (provider-v2.md, "POST /transfers"), shared by Standard Transfer V2 and
 * the entries of Batch Transfer V2: decoding with the provider's path-prefixed field codes, the
 * beneficiary by id or inline, outcomes from the same test accounts as v1 with the v2 statuses
 * and status codes, and the Transfer object every v2 transfer endpoint answers.
 */

export const V2_TRANSFER_KEYS = [
  'transfer_id',
  'transfer_amount',
  'transfer_currency',
  'transfer_mode',
  'beneficiary_details',
  'transfer_remarks',
  'fundsource_id',
];
const BENE_KEYS = [
  'beneficiary_id',
  'beneficiary_name',
  'beneficiary_instrument_details',
  'beneficiary_contact_details',
];
const INSTRUMENT_KEYS = ['bank_account_number', 'bank_ifsc', 'vpa', 'card_details'];
const CARD_KEYS = [
  'card_token',
  'card_network_type',
  'card_cryptogram',
  'card_token_expiry',
  'card_type',
  'card_token_PAN_sequence_number',
];
/** Contact fields and their longest value (provider-v2.md): transfers and beneficiaries alike. */
export const V2_CONTACT_LIMITS: Readonly<Record<string, number>> = {
  beneficiary_email: 200,
  beneficiary_phone: 20,
  beneficiary_country_code: 4,
  beneficiary_address: 150,
  beneficiary_city: 50,
  beneficiary_state: 50,
  beneficiary_postal_code: 6,
};

export const V2_BANK_MODES: readonly string[] = ['banktransfer', 'imps', 'neft', 'rtgs'];
export const V2_WALLET_MODES: readonly string[] = ['paytm', 'amazonpay'];
export const V2_CARD_MODES: readonly string[] = ['card', 'cardupi'];
export const V2_MODES: readonly string[] = [...V2_BANK_MODES, 'upi', ...V2_WALLET_MODES, ...V2_CARD_MODES];

export const V2_BENE_ID_RE = /^[A-Za-z0-9_|.]{1,50}$/;
export const V2_BANK_ACCOUNT_RE = /^[A-Za-z0-9]{9,18}$/;
export const V2_NAME_RE = /^[A-Za-z ]{1,100}$/;
/** Letters, digits, `.`, `-`, `_` before the `@`; no `-` after it. */
export const V2_VPA_RE = /^[A-Za-z0-9._-]+@[A-Za-z0-9._]+$/;

export interface V2Instrument {
  readonly bankAccount: string;
  readonly ifsc: string;
  readonly vpa: string;
  readonly cardToken: string;
  readonly phone: string;
}

/** A decoded v2 transfer, before the beneficiary is resolved. */
export interface V2TransferDraft {
  readonly transferId: string;
  readonly amount: Paise;
  readonly mode: string;
  readonly beneId: string;
  readonly name: string;
  /** Inline instrument details ('' where not given). */
  readonly inline: V2Instrument;
  readonly remarks: string;
  readonly fundsourceId: string;
}

const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

function object(v: unknown, keys: readonly string[], row: V2Row): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) failV2(row);
  const o = v as Obj;
  for (const k of Object.keys(o)) if (!keys.includes(k)) failV2(V2_COMMON.unknownField);
  return o;
}

/** An optional string field: '' when absent; the row when present with another type or failing `ok`. */
function text(o: Obj, key: string, row: V2Row, ok: (s: string) => boolean = () => true): string {
  const v = o[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string' || !ok(v)) failV2(row);
  return v;
}

/**
 * `transfer_amount` is a JSON number on the v2 wire. It is read through its shortest decimal text
 * (parseAmount), never with float arithmetic; a string is refused (the provider's type is number).
 */
export function v2Amount(v: unknown, rows: V2TransferFieldRows): Paise {
  if (v === undefined || v === null) failV2(rows.amountMissing);
  const a = typeof v === 'number' ? parseAmount(v) : undefined;
  if (!a || a.decimals > 2 || a.paise < rupees(1)) failV2(rows.amountInvalid);
  return a.paise;
}

function decodeCard(v: unknown, rows: V2TransferFieldRows): string {
  const c = object(v, CARD_KEYS, rows.cardInvalid);
  const token = text(c, 'card_token', rows.cardInvalid);
  const network = text(c, 'card_network_type', rows.cardInvalid);
  if (token === '' || (network !== '' && network !== 'VISA' && network !== 'MASTERCARD'))
    failV2(rows.cardInvalid);
  text(c, 'card_cryptogram', rows.cardInvalid, (s) => s.length <= 600);
  text(c, 'card_token_expiry', rows.cardInvalid, (s) => /^\d{4}-(0[1-9]|1[0-2])$/.test(s));
  text(c, 'card_type', rows.cardInvalid, (s) => s === 'DEBIT' || s === 'CREDIT');
  text(c, 'card_token_PAN_sequence_number', rows.cardInvalid, (s) => s.length <= 3);
  return token;
}

/** The contact details; answers the beneficiary's phone (digits, without +91). */
function decodeContact(v: unknown, row: V2Row): Record<string, string> {
  if (v === undefined || v === null) return {};
  const c = object(v, Object.keys(V2_CONTACT_LIMITS), row);
  const out: Record<string, string> = {};
  for (const [k, max] of Object.entries(V2_CONTACT_LIMITS)) out[k] = text(c, k, row, (s) => s.length <= max);
  const phone = (out.beneficiary_phone ?? '').replace(/^\+91/, '');
  if (phone !== '' && !/^\d{8,12}$/.test(phone)) failV2(row);
  if (out.beneficiary_postal_code && !/^\d{6}$/.test(out.beneficiary_postal_code)) failV2(row);
  if (out.beneficiary_email && !/^[^@\s]+@[^@\s]+$/.test(out.beneficiary_email)) failV2(row);
  out.beneficiary_phone = phone;
  return out;
}

/** Checks every field of a v2 transfer; the first failing one answers its row. */
export function decodeV2Transfer(o: Obj, rows: V2TransferFieldRows): V2TransferDraft {
  for (const k of Object.keys(o)) if (!V2_TRANSFER_KEYS.includes(k)) failV2(V2_COMMON.unknownField);
  if (!given(o.transfer_id)) failV2(rows.transferIdMissing);
  const transferId = o.transfer_id;
  if (typeof transferId !== 'string' || !TRANSFER_ID_RE.test(transferId)) failV2(rows.transferIdInvalid);
  const amount = v2Amount(o.transfer_amount, rows);
  text(o, 'transfer_currency', rows.currencyInvalid, (s) => s === 'INR');
  const mode = text(o, 'transfer_mode', rows.modeInvalid, (s) => V2_MODES.includes(s)) || 'banktransfer';
  const remarks = text(o, 'transfer_remarks', rows.remarksInvalid, (s) => REMARKS_RE.test(s));
  const fundsourceId = text(o, 'fundsource_id', rows.fundsourceInvalid, (s) => s.length <= 50);
  if (o.beneficiary_details === undefined || o.beneficiary_details === null) failV2(rows.beneDetailsMissing);
  const b = object(o.beneficiary_details, BENE_KEYS, rows.beneDetailsMissing);
  const beneId = text(b, 'beneficiary_id', rows.beneIdInvalid, (s) => V2_BENE_ID_RE.test(s));
  const name = text(b, 'beneficiary_name', rows.beneNameInvalid, (s) => V2_NAME_RE.test(s));
  if (beneId === '' && name === '') failV2(rows.beneNameInvalid);
  const d =
    b.beneficiary_instrument_details === undefined || b.beneficiary_instrument_details === null
      ? {}
      : object(b.beneficiary_instrument_details, INSTRUMENT_KEYS, rows.accountInvalid);
  const bankAccount = text(d, 'bank_account_number', rows.accountInvalid, (s) => V2_BANK_ACCOUNT_RE.test(s));
  const ifsc = text(d, 'bank_ifsc', rows.ifscInvalid, (s) => IFSC_RE.test(s));
  const vpa = text(d, 'vpa', rows.vpaInvalid, (s) => V2_VPA_RE.test(s));
  const cardToken = d.card_details === undefined ? '' : decodeCard(d.card_details, rows);
  const contact = decodeContact(b.beneficiary_contact_details, rows.contactInvalid);
  const inline = { bankAccount, ifsc, vpa, cardToken, phone: contact.beneficiary_phone ?? '' };
  // With a registered beneficiary the instrument comes from the registration (checked later).
  if (beneId === '') requireInstrument(mode, inline, rows);
  return { transferId, amount, mode, beneId, name, inline, remarks, fundsourceId };
}

/** The instrument the mode needs must be there. */
function requireInstrument(mode: string, d: V2Instrument, rows: V2TransferFieldRows): void {
  if (V2_BANK_MODES.includes(mode)) {
    if (d.bankAccount === '') failV2(rows.accountInvalid);
    if (d.ifsc === '') failV2(rows.ifscInvalid);
  } else if (mode === 'upi') {
    if (d.vpa === '') failV2(rows.vpaInvalid);
  } else if (V2_CARD_MODES.includes(mode)) {
    if (d.cardToken === '') failV2(rows.cardInvalid);
  } else if (d.phone === '') {
    failV2(rows.contactInvalid);
  }
}

export interface V2ResolveRows {
  readonly fields: V2TransferFieldRows;
  readonly beneNotFound: V2Row;
  readonly transferIdExists: V2Row;
}

/**
 * The instrument to pay: the registered beneficiary's (shared with v1's store) or the inline
 * details. Inline details that differ from the registered beneficiary's are refused with the
 * field's own code, as the provider documents.
 */
export function resolveV2Instrument(
  beneficiaries: ReadonlyMap<string, Beneficiary>,
  draft: V2TransferDraft,
  rows: V2ResolveRows,
): V2Instrument {
  if (draft.beneId === '') return draft.inline;
  const b = beneficiaries.get(draft.beneId);
  if (!b) failV2(rows.beneNotFound);
  const f = rows.fields;
  const i = draft.inline;
  if (i.bankAccount !== '' && i.bankAccount !== b.bankAccount) failV2(f.accountInvalid);
  if (i.ifsc !== '' && i.ifsc !== b.ifsc) failV2(f.ifscInvalid);
  if (i.vpa !== '' && i.vpa !== b.vpa) failV2(f.vpaInvalid);
  const registered = {
    bankAccount: b.bankAccount,
    ifsc: b.ifsc,
    vpa: b.vpa,
    cardToken: i.cardToken,
    phone: i.phone || b.phone,
  };
  requireInstrument(draft.mode, registered, f);
  return registered;
}

export function v2Outcome(mode: string, d: V2Instrument): Outcome {
  if (mode === 'upi') return vpaOutcome(d.vpa);
  if (V2_WALLET_MODES.includes(mode)) return d.phone === FAILING_WALLET_PHONE ? 'bankFailed' : 'success';
  if (V2_CARD_MODES.includes(mode)) {
    if ((CARD_TOKENS.success as readonly string[]).includes(d.cardToken)) return 'success';
    return d.cardToken === CARD_TOKENS.invalidAccount ? 'invalidAccount' : 'bankFailed';
  }
  return bankOutcome(d.bankAccount, d.ifsc);
}
