import { check, IFSC_PATTERN, matches, type FieldRule } from '../core/field-rules.js';

/** Field rules the Beneficiary V2 operations share (provider-v2.md, Beneficiary V2). */
export const V2_BENE_ID = /^[A-Za-z0-9_|.]+$/;
const ACCOUNT = /^[A-Za-z0-9]+$/;

export const beneficiaryIdRules = <R>(get: (r: R) => string | undefined): FieldRule<R>[] => [
  check((r) => (get(r) ?? '').length <= 50, 'beneficiary_id_length_exceeded', 'beneficiary_id is too long'),
  matches(get, V2_BENE_ID, 50, 'beneficiary_id_invalid', 'beneficiary_id is invalid'),
];

export const beneficiaryAccountRules = <R>(
  account: (r: R) => string | undefined,
  ifsc: (r: R) => string | undefined,
): FieldRule<R>[] => [
  check((r) => !account(r) || Boolean(ifsc(r)), 'bank_ifsc_missing', 'bank_ifsc is missing'),
  check(
    (r) => !ifsc(r) || Boolean(account(r)),
    'bank_account_number_missing',
    'bank_account_number is missing',
  ),
  check((r) => (account(r) ?? '').length <= 18, 'bank_account_number_length_exceeded', 'too long'),
  check(
    (r) => !account(r) || (account(r) ?? '').length >= 9,
    'bank_account_number_length_short',
    'too short',
  ),
  matches(account, ACCOUNT, 18, 'bank_account_number_invalid', 'bank_account_number is invalid'),
  matches(ifsc, IFSC_PATTERN, 11, 'bank_ifsc_invalid', 'bank_ifsc is invalid'),
];
