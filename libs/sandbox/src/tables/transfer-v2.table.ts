import { type V2Row, type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

const INSTRUMENT = 'beneficiary_details.beneficiary_instrument_details';

/**
 * The field rows of a v2 transfer (provider-v2.md, "POST /transfers"), shared with the batch
 * entries, which answer them with the `transfers[i].` prefix. Documented rows carry the
 * provider's codes; the others are the sandbox's own where the provider is silent.
 */
export const V2_TRANSFER_FIELDS = {
  transferIdMissing: bad('transfer_id_missing', 'transfer_id is missing in the request', true),
  transferIdInvalid: bad(
    'transfer_id_invalid',
    'transfer_id should be alphanumeric with underscores, at most 40 characters',
    true,
  ),
  amountMissing: bad('transfer_amount_missing', 'transfer_amount is missing in the request', true),
  amountInvalid: bad('transfer_amount_invalid', 'transfer_amount should be greater then 1.00', true),
  modeInvalid: bad(
    'transfer_mode_invalid',
    'transfer_mode should be one of bank, imps, neft, rtgs, upi, paytm, amazonpay, card, cardupi',
    true,
  ),
  beneIdInvalid: bad(
    'beneficiary_details.beneficiary_id_invalid',
    'beneficiary_id should be alphanumeric',
    true,
  ),
  beneNameInvalid: bad(
    'beneficiary_details.beneficiary_name_invalid',
    'beneficiary_name should contain only letters and spaces, at most 100 characters',
    true,
  ),
  accountInvalid: bad(
    `${INSTRUMENT}.bank_account_number_invalid`,
    'bank_account_number should be 9 to 18 alphanumeric characters',
    true,
  ),
  ifscInvalid: bad(`${INSTRUMENT}.bank_ifsc_invalid`, 'bank_ifsc is invalid', true),
  vpaInvalid: bad(`${INSTRUMENT}.vpa_invalid`, 'vpa is invalid', true),
  cardInvalid: bad(`${INSTRUMENT}.card_details_invalid`, 'card_details are invalid'),
  contactInvalid: bad(
    'beneficiary_details.beneficiary_contact_details_invalid',
    'beneficiary_contact_details are invalid',
  ),
  beneDetailsMissing: bad('beneficiary_details_missing', 'beneficiary_details is missing in the request'),
  currencyInvalid: bad('transfer_currency_invalid', 'transfer_currency should be INR'),
  remarksInvalid: bad(
    'transfer_remarks_invalid',
    'transfer_remarks should be alphanumeric with spaces, at most 70 characters',
  ),
  fundsourceInvalid: bad('fundsource_id_invalid', 'fundsource_id is invalid'),
} as const satisfies V2Table;

export type V2TransferFieldRows = Readonly<Record<keyof typeof V2_TRANSFER_FIELDS, V2Row>>;

/** Standard Transfer V2 error table. */
export const V2_STANDARD_TRANSFER = {
  ...V2_TRANSFER_FIELDS,
  beneNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'beneficiary_not_found',
    message: 'beneficiary does not exist',
  },
  // Inferred (provider-v2.md): the OAS lists no answer to a repeated transfer_id; v1 answers 409
  // "Transfer Id already exists" and v2 uses 409 `<id>_already_exists` for batches and beneficiaries.
  transferIdExists: {
    http: 409,
    type: 'invalid_request_error',
    code: 'transfer_id_already_exists',
    message: 'transfer_id already exists',
    documented: false,
  },
} as const satisfies V2Table;
