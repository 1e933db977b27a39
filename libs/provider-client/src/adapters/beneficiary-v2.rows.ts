import { type V2OutcomeRow, type V2OutcomeTable } from '../core/v2-classify.js';

export const invalidV2Row = (code: string, meaning: string): V2OutcomeRow => ({
  http: 400,
  code,
  outcome: 'failed',
  kind: 'invalid-request',
  meaning,
});

/** Identifier and account rows the three Beneficiary V2 operations share (provider-v2.md). */
export const BENEFICIARY_V2_IDENTIFIER_ROWS: V2OutcomeTable = [
  invalidV2Row('beneficiary_id_length_exceeded', 'beneficiary_id longer than 50'),
  invalidV2Row(
    'beneficiary_id_invalid',
    'beneficiary_id has characters other than letters, digits, _, | and .',
  ),
  invalidV2Row('beneficiary_id_missing', 'beneficiary_id missing'),
  invalidV2Row('bank_ifsc_missing', 'bank_account_number without bank_ifsc'),
  invalidV2Row('bank_account_number_missing', 'bank_ifsc without bank_account_number'),
  invalidV2Row('bank_account_number_length_exceeded', 'bank_account_number too long'),
  invalidV2Row('bank_account_number_length_short', 'bank_account_number too short'),
  invalidV2Row('bank_account_number_invalid', 'bank_account_number invalid'),
  invalidV2Row('bank_ifsc_invalid', 'bank_ifsc invalid'),
];

export const BENEFICIARY_V2_NOT_FOUND: V2OutcomeRow = {
  http: 404,
  code: 'beneficiary_not_found',
  outcome: 'failed',
  kind: 'not-found',
  meaning: 'Beneficiary does not exist',
};

/**
 * Any other 400 is a refusal of what we sent: nothing was registered, and sending it again
 * would be refused again.
 */
export const BENEFICIARY_V2_OTHER_400: V2OutcomeRow = {
  http: 400,
  outcome: 'failed',
  kind: 'invalid-request',
  meaning: 'Request refused as invalid',
};
