import { isoUtc } from '../core/clock.js';
import { type Beneficiary } from '../core/state.js';
import { bankOutcome, IFSC_RE } from '../core/test-data.js';
import { type V2_BENEFICIARY_ROWS } from '../tables/create-beneficiary-v2.table.js';
import { failV2 } from '../tables/v2-common.table.js';

/**
 * Beneficiary V2 shapes over the one beneficiary store the v1 endpoints use: a beneficiary added
 * on v1 is found on v2 and the other way round.
 */

type Rows = typeof V2_BENEFICIARY_ROWS;

export function checkBeneId(id: string, rows: Rows): void {
  if (id.length > 50) failV2(rows.beneIdLengthExceeded);
  if (!/^[A-Za-z0-9_|.]+$/.test(id)) failV2(rows.beneIdInvalid);
}

/** Account and IFSC come together; the account is 9 to 18 alphanumerics. */
export function checkAccount(account: string, ifsc: string, rows: Rows): void {
  if (account !== '' && ifsc === '') failV2(rows.ifscMissing);
  if (account === '' && ifsc !== '') failV2(rows.accountMissing);
  if (account === '') return;
  if (account.length > 18) failV2(rows.accountLengthExceeded);
  if (account.length < 9) failV2(rows.accountLengthShort);
  if (!/^[A-Za-z0-9]+$/.test(account)) failV2(rows.accountInvalid);
  if (!IFSC_RE.test(ifsc)) failV2(rows.ifscInvalid);
}

/**
 * The `Beneficiary` object. Its status: INVALID for the test accounts whose transfers fail as an
 * invalid account or IFSC, VERIFIED otherwise (the sandbox verifies at once); DELETED once removed.
 */
export function beneficiaryView(b: Beneficiary, deleted = false): Record<string, unknown> {
  const outcome = b.bankAccount ? bankOutcome(b.bankAccount, b.ifsc) : 'success';
  const invalid = outcome === 'invalidAccount' || outcome === 'invalidIfsc';
  const instrument: Record<string, string> = {};
  if (b.bankAccount) instrument.bank_account_number = b.bankAccount;
  if (b.ifsc) instrument.bank_ifsc = b.ifsc;
  if (b.vpa) instrument.vpa = b.vpa;
  const contact: Record<string, string> = {};
  const put = (k: string, v: string | undefined): void => {
    if (v) contact[k] = v;
  };
  put('beneficiary_email', b.email);
  put('beneficiary_phone', b.phone);
  put('beneficiary_country_code', b.countryCode ?? (b.phone ? '+91' : ''));
  put('beneficiary_address', b.address1);
  put('beneficiary_city', b.city);
  put('beneficiary_state', b.state);
  put('beneficiary_postal_code', b.pincode);
  return {
    beneficiary_id: b.beneId,
    beneficiary_name: b.name,
    beneficiary_instrument_details: instrument,
    beneficiary_contact_details: contact,
    beneficiary_status: deleted ? 'DELETED' : invalid ? 'INVALID' : 'VERIFIED',
    added_on: isoUtc(b.addedAt),
  };
}
