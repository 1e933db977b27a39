import { type ProviderSubState } from '#contracts';
import { type EndpointName } from '#provider-client/testing';

/*
 * What each documented answer MEANS, written from the documents (shared/spec/payouts-service-
 * interface.md "Errors" and "States and transitions", provider-facts.md, provider-v2.md), never
 * read back from the client's outcome tables. The outcome-table tests send every row of the
 * client's tables and every row here, and compare what the client makes of it with this. Change
 * a row of a production table (requestTransfer ERROR/201 "no response from bank" to `failed`) and
 * a test fails.
 *
 * The money rules these meanings follow:
 * - an answer that does not say the money stayed (no response from the bank, a server error, an
 *   undocumented answer) is `unknown`: in doubt, checked by status, never a refusal;
 * - "already exists" (or a used token) is a `failed/duplicate`: the provider holds the id, look it up;
 * - only the provider's own refusal of what we sent is `failed/rejected` or `failed/invalid-request`;
 * - a wait is `pending` with the provider's sub-state; SUCCESS only when paid.
 */
export type Verdict =
  | 'success'
  | 'pending'
  | 'unknown'
  | 'retry-safe'
  | 'auth-refresh'
  | 'fatal-config'
  | 'failed/rejected'
  /** A refusal for the account's balance (issue 32): the money stayed; counted as a bounce. */
  | 'failed/rejected+short-of-funds'
  | 'failed/duplicate'
  | 'failed/invalid-request'
  | 'failed/not-found'
  | 'failed/expired';

export interface LegacyMeaning {
  readonly status: 'SUCCESS' | 'PENDING' | 'ERROR';
  readonly subCode: number;
  /** A case-insensitive fragment of the message; absent: any other message with this code. */
  readonly message?: string;
  readonly verdict: Verdict;
  readonly subState?: ProviderSubState;
  /** The document's words. */
  readonly doc: string;
}

export interface V2Meaning {
  readonly http: number;
  /** The error object's code (`[i]` for a batch entry's index); absent: any other code. */
  readonly code?: string;
  /** A case-insensitive fragment of the message, for rows without a code. */
  readonly message?: string;
  readonly verdict: Verdict;
  readonly doc: string;
}

const L = (
  status: LegacyMeaning['status'],
  subCode: number,
  verdict: Verdict,
  doc: string,
  more: { message?: string; subState?: ProviderSubState } = {},
): LegacyMeaning => ({ status, subCode, verdict, doc, ...more });

/** Interface "Legacy errors", Common: every bearer-token endpoint. */
const COMMON: readonly LegacyMeaning[] = [
  L('ERROR', 403, 'auth-refresh', 'Token is not valid', { message: 'token is not valid' }),
  L('ERROR', 403, 'fatal-config', 'IP not whitelisted', { message: 'ip not whitelisted' }),
  L('ERROR', 403, 'fatal-config', 'APIs not enabled (account not enabled)', { message: 'not enabled' }),
  L('ERROR', 412, 'auth-refresh', 'Token missing in the request', { message: 'token missing' }),
  L('ERROR', 429, 'retry-safe', 'Too many requests'),
  L('ERROR', 405, 'fatal-config', 'Invalid URL or HTTP method'),
  L('ERROR', 520, 'unknown', 'Unknown error'),
];

/** A repeat of a known id: the provider holds it (facts: "Transfer Id already exists"). */
const duplicate = (subCode: number, doc = 'Transfer ID already exists') =>
  L('ERROR', subCode, 'failed/duplicate', doc, { message: 'already exist' });

export const LEGACY_MEANINGS: Readonly<Partial<Record<EndpointName, readonly LegacyMeaning[]>>> = {
  authorize: [
    L('SUCCESS', 200, 'success', 'Token generated'),
    L('ERROR', 401, 'fatal-config', 'Invalid client ID and secret combination'),
    L('ERROR', 403, 'fatal-config', 'IP not whitelisted', { message: 'ip not whitelisted' }),
    L('ERROR', 403, 'fatal-config', 'APIs not enabled', { message: 'not enabled' }),
    L('ERROR', 403, 'fatal-config', 'Any other refusal of the credentials or the signature'),
    L('ERROR', 429, 'retry-safe', 'Too many requests'),
    L('ERROR', 520, 'unknown', 'Unknown error'),
  ],
  requestTransfer: [
    L('SUCCESS', 200, 'success', 'Transfer completed'),
    L('SUCCESS', 201, 'pending', 'Scheduled for next working day (not paid yet)', {
      subState: 'scheduled_next_working_day',
    }),
    L('PENDING', 201, 'pending', 'Awaiting beneficiary bank; or pending at the bank', {
      subState: 'sent_to_bank',
    }),
    L('ERROR', 201, 'unknown', 'Transfer triggered; no response from bank'),
    L('PENDING', 202, 'pending', 'Request received; check later'),
    duplicate(400),
    L('ERROR', 400, 'failed/rejected+short-of-funds', 'Insufficient balance', {
      message: 'insufficient balance',
    }),
    L('ERROR', 400, 'failed/rejected', 'Mode, balance, limits, instrument, or attempt failed at bank'),
    ...COMMON,
    L('ERROR', 404, 'failed/not-found', 'Beneficiary does not exist'),
    L('ERROR', 412, 'failed/invalid-request', 'Invalid transferId'),
    L('ERROR', 422, 'failed/invalid-request', 'Invalid beneId, account, IFSC, amount, transferId, remarks'),
  ],
  directTransfer: [
    L('SUCCESS', 200, 'success', 'Transfer completed'),
    L('SUCCESS', 201, 'pending', 'Scheduled for next working day (not paid yet)', {
      subState: 'scheduled_next_working_day',
    }),
    L('PENDING', 201, 'pending', 'Awaiting beneficiary bank confirmation; or pending at the bank', {
      subState: 'sent_to_bank',
    }),
    L('PENDING', 202, 'pending', 'Request received; check status later'),
    duplicate(400),
    L('ERROR', 400, 'failed/rejected', 'Payment instrument problem; transfer attempt failed at the bank'),
    L('ERROR', 403, 'failed/rejected', 'Transfer to this beneficiary not allowed', {
      message: 'beneficiary not allowed',
    }),
    L('ERROR', 403, 'failed/rejected', 'Transfer mode not available for the account', {
      message: 'transfer mode not available',
    }),
    L('ERROR', 403, 'fatal-config', 'Feature not available for the account', {
      message: 'feature not available',
    }),
    ...COMMON,
    L('ERROR', 404, 'failed/not-found', 'Beneficiary does not exist'),
    L('ERROR', 409, 'failed/duplicate', 'Transfer ID already exists'),
    L('ERROR', 412, 'failed/rejected+short-of-funds', 'Insufficient balance', {
      message: 'insufficient balance',
    }),
    L('ERROR', 412, 'failed/rejected', 'Missing field; limits; mode not enabled'),
    L('ERROR', 422, 'failed/invalid-request', 'Invalid amount, transferId, details, IFSC or remarks'),
    L('ERROR', 520, 'unknown', 'Transfer triggered; no response from bank', { message: 'no response' }),
  ],
  requestBatchTransfer: [
    L('SUCCESS', 200, 'success', 'Batch requested; check processing status later'),
    L('PENDING', 202, 'pending', 'Request received'),
    L('ERROR', 403, 'fatal-config', 'Permission denied', { message: 'permission denied' }),
    ...COMMON,
    duplicate(409, 'Batch transfer ID already exists'),
    L('ERROR', 409, 'failed/invalid-request', 'Invalid batch format'),
    L('ERROR', 422, 'failed/invalid-request', 'Batch ID, format or entries missing or invalid'),
    L('ERROR', 520, 'unknown', 'Batch request failed; error in batch transfer', { message: 'batch' }),
  ],
  internalTransfer: [
    L('SUCCESS', 200, 'success', 'Internal transfer done'),
    ...COMMON,
    L('ERROR', 404, 'failed/not-found', 'Recharge account not found'),
    L('ERROR', 422, 'fatal-config', 'Account not configured (contact the account manager)'),
  ],
  selfWithdrawal: [
    L('SUCCESS', 200, 'success', 'Withdrawal requested (statusCode 200)'),
    L('ERROR', 412, 'failed/invalid-request', 'withdrawalId missing', { message: 'withdrawalid' }),
    ...COMMON,
  ],
  getBeneId: [
    L('SUCCESS', 200, 'success', 'Beneficiary id'),
    L('ERROR', 52, 'retry-safe', 'Error while fetching the ID (retry)'),
    ...COMMON,
    L('ERROR', 404, 'failed/not-found', 'No beneficiary for the bank details'),
    L('ERROR', 422, 'failed/invalid-request', 'Invalid bank account and IFSC'),
  ],
  getBatchTransferStatus: [
    L('SUCCESS', 200, 'success', 'Data retrieved'),
    L('PENDING', 201, 'pending', 'Entries not processed yet'),
    ...COMMON,
    L('ERROR', 404, 'failed/not-found', 'Batch transfer ID does not exist'),
  ],
  cardpay: [
    L('SUCCESS', 200, 'success', 'Completed'),
    L('PENDING', 201, 'pending', 'Pending at the bank', { subState: 'sent_to_bank' }),
    L('ERROR', 400, 'failed/duplicate', 'Transfer ID exists', { message: 'exist' }),
    ...COMMON,
    L('ERROR', 412, 'failed/rejected+short-of-funds', 'Insufficient balance'),
    L('ERROR', 422, 'failed/invalid-request', 'Invalid token details, amount, name, types or transferId'),
  ],
  beneHistory: [
    L('SUCCESS', 200, 'success', 'Data retrieved'),
    ...COMMON,
    L('ERROR', 422, 'failed/invalid-request', 'Invalid date range, page, beneficiary id or perPage'),
  ],
  getTransferStatus: [
    L('SUCCESS', 200, 'success', 'Data retrieved (the transfer status decides)'),
    ...COMMON,
    L('ERROR', 404, 'failed/not-found', 'TransferId is invalid or does not exist', {
      message: 'transferid is invalid or does not exist',
    }),
    L('ERROR', 404, 'failed/not-found', 'ReferenceId is invalid or does not exist', {
      message: 'referenceid is invalid or does not exist',
    }),
    // Only the provider's own words say the transfer is unknown (issue 21).
    L('ERROR', 404, 'unknown', 'A 404 that does not say the transfer is unknown'),
  ],
  addBeneficiary: [
    L('SUCCESS', 200, 'success', 'Beneficiary added'),
    ...COMMON,
    L('ERROR', 409, 'failed/duplicate', 'Beneficiary id already exists'),
    L('ERROR', 422, 'failed/invalid-request', 'Invalid beneficiary details'),
  ],
  getBeneficiary: [
    L('SUCCESS', 200, 'success', 'Details of beneficiary'),
    ...COMMON,
    L('ERROR', 404, 'failed/not-found', 'Beneficiary does not exist'),
  ],
  removeBeneficiary: [
    L('SUCCESS', 200, 'success', 'Beneficiary removed'),
    ...COMMON,
    L('ERROR', 404, 'failed/not-found', 'Beneficiary does not exist'),
    L('ERROR', 422, 'failed/invalid-request', 'Invalid beneficiary id'),
  ],
  // provider-facts.md "Long waits, balance and approvals": Get Balance answers the ledger and the
  // available balance; the page lists a 200, the access 403s and a 422 without its message. A read:
  // nothing about money is in doubt, a 520 is simply read again.
  getBalance: [
    L('SUCCESS', 200, 'success', 'Ledger balance for the account (balance, availableBalance)'),
    ...COMMON,
    L('ERROR', 422, 'failed/invalid-request', 'Invalid request (declared without its message)'),
  ],
};

const V = (http: number, verdict: Verdict, doc: string, more: { code?: string; message?: string } = {}) =>
  ({ http, verdict, doc, ...more }) as V2Meaning;
const invalid = (code: string) => V(400, 'failed/invalid-request', code, { code });

/** Credentials and source address (provider-v2.md "Common to all v2 calls"). */
const V2_COMMON: readonly V2Meaning[] = [
  V(401, 'fatal-config', 'Client id and secret rejected'),
  V(403, 'fatal-config', 'IP not whitelisted', { message: 'ip not whitelisted' }),
  V(403, 'fatal-config', 'APIs not enabled', { message: 'not enabled' }),
];

/** A server error after a send: the transfer may exist; checked, never re-sent blind. */
const inDoubt = (what: string) =>
  [500, 502, 503, 504].map((h) => V(h, 'unknown', `${h}: the ${what} may exist`));

const INSTRUMENT = 'beneficiary_details.beneficiary_instrument_details';
const TRANSFER_FIELDS = [
  'transfer_id_missing',
  'transfer_id_invalid',
  'transfer_amount_missing',
  'transfer_amount_invalid',
  'transfer_mode_invalid',
  'beneficiary_details.beneficiary_id_invalid',
  'beneficiary_details.beneficiary_name_invalid',
  `${INSTRUMENT}.bank_account_number_invalid`,
  `${INSTRUMENT}.bank_ifsc_invalid`,
  `${INSTRUMENT}.vpa_invalid`,
];
const BENE_IDENTIFIERS = [
  'beneficiary_id_length_exceeded',
  'beneficiary_id_invalid',
  'beneficiary_id_missing',
  'bank_ifsc_missing',
  'bank_account_number_missing',
  'bank_account_number_length_exceeded',
  'bank_account_number_length_short',
  'bank_account_number_invalid',
  'bank_ifsc_invalid',
];

export const V2_MEANINGS: Readonly<Partial<Record<EndpointName, readonly V2Meaning[]>>> = {
  processValidatedPayout: [
    V(400, 'failed/expired', 'Token older than one hour', { code: 'transfer_token_expired' }),
    V(400, 'failed/invalid-request', 'transfer_id differs from the token', { code: 'invalid_transfer_id' }),
    V(400, 'failed/invalid-request', 'Token value invalid', { code: 'transfer_token_invalid' }),
    V(400, 'failed/invalid-request', 'Mode other than upi with a token', {
      code: 'transfer_mode_with_transfer_token_invalid',
    }),
    V(404, 'failed/not-found', 'Instrument for the token does not exist', { code: 'resource_not_found' }),
    // The token was used to initiate a payout: it exists; look it up.
    V(422, 'failed/duplicate', 'Token already used to initiate a payout', {
      code: 'failed_to_process_request',
    }),
    ...V2_COMMON,
  ],
  createSdkToken: [...V2_COMMON],
  getTransferStatusV2: [
    V(404, 'failed/not-found', 'transfer_id does not exist', { code: 'transfer_id_not_found' }),
    V(404, 'failed/not-found', 'cf_transfer_id does not exist', { code: 'cf_transfer_id_not_found' }),
    V(404, 'failed/not-found', 'svc_transfer_id does not exist', { code: 'svc_transfer_id_not_found' }),
    V(404, 'unknown', 'A 404 that does not say the transfer is unknown'),
    ...V2_COMMON,
  ],
  transferV2: [
    ...TRANSFER_FIELDS.map(invalid),
    V(400, 'failed/invalid-request', 'Any other 400: refused unread'),
    V(403, 'fatal-config', 'apis_not_enabled', { code: 'apis_not_enabled' }),
    V(404, 'failed/rejected', 'beneficiary_not_found', { code: 'beneficiary_not_found' }),
    // 422 on this path is "already used to initiate a payout": the transfer may exist.
    V(422, 'unknown', 'Unprocessable: the transfer may exist'),
    V(429, 'retry-safe', 'Rate limited'),
    ...inDoubt('transfer'),
    ...V2_COMMON,
  ],
  batchTransferV2: [
    invalid('batch_transfer_id_missing'),
    invalid('batch_transfer_id_invalid'),
    ...TRANSFER_FIELDS.map((c) => invalid(`transfers[i].${c}`)),
    V(400, 'failed/invalid-request', 'Any other 400: refused unread'),
    V(409, 'failed/duplicate', 'batch_transfer_id_already_exists', {
      code: 'batch_transfer_id_already_exists',
    }),
    V(403, 'fatal-config', 'apis_not_enabled', { code: 'apis_not_enabled' }),
    V(422, 'unknown', 'Unprocessable: the batch may exist'),
    V(429, 'retry-safe', 'Rate limited'),
    ...inDoubt('batch'),
    ...V2_COMMON,
  ],
  getBatchTransferStatusV2: [
    V(404, 'failed/not-found', 'batch_transfer_id not found', { code: 'batch_transfer_id_not_found' }),
    V(404, 'failed/not-found', 'unknown cf id (the example code, sic)', { code: 'cf_batch_transfer_id' }),
    V(404, 'failed/not-found', 'cf_batch_transfer_id not found', { code: 'cf_batch_transfer_id_not_found' }),
    V(404, 'unknown', 'A 404 that does not say the batch is unknown'),
    invalid('batch_transfer_id_missing'),
    V(403, 'fatal-config', 'apis_not_enabled', { code: 'apis_not_enabled' }),
    V(429, 'retry-safe', 'Rate limited'),
    V(500, 'unknown', 'Provider error: asked again'),
    ...V2_COMMON,
  ],
  createBeneficiaryV2: [
    ...BENE_IDENTIFIERS.map(invalid),
    invalid('beneficiary_name_invalid'),
    invalid('vpa_invalid'),
    invalid('beneficiary_instrument_details_missing'),
    invalid('beneficiary_contact_details_invalid'),
    V(409, 'failed/duplicate', 'beneficiary_id_already_exists', { code: 'beneficiary_id_already_exists' }),
    V(409, 'failed/duplicate', 'beneficiary_already_exists', { code: 'beneficiary_already_exists' }),
    V(422, 'failed/rejected', 'account same as source', { code: 'beneficiary_account_same_as_source' }),
    V(422, 'failed/rejected', 'virtual account not allowed', { code: 'vba_bene_not_allowed' }),
    V(400, 'failed/invalid-request', 'Any other 400'),
    ...V2_COMMON,
  ],
  getBeneficiaryV2: [
    ...BENE_IDENTIFIERS.map(invalid),
    invalid('too_many_parameters_in_request'),
    invalid('beneficiary_identifiers_missing'),
    V(404, 'failed/not-found', 'beneficiary_not_found', { code: 'beneficiary_not_found' }),
    V(404, 'unknown', 'A 404 that does not say the beneficiary is unknown'),
    V(400, 'failed/invalid-request', 'Any other 400'),
    ...V2_COMMON,
  ],
  deleteBeneficiaryV2: [
    invalid('beneficiary_id_length_exceeded'),
    invalid('beneficiary_id_missing'),
    V(404, 'failed/not-found', 'beneficiary_not_found', { code: 'beneficiary_not_found' }),
    V(404, 'unknown', 'A 404 that does not say the beneficiary is unknown'),
    V(400, 'failed/invalid-request', 'Any other 400'),
    ...V2_COMMON,
  ],
};

const norm = (s: string | undefined) => (s ?? '').toLowerCase().replace(/\s+/g, ' ');

/** The meaning of a legacy answer: a row whose message fragment it holds, else its code's catch-all. */
export function legacyMeaning(
  endpoint: EndpointName,
  status: string,
  subCode: number | string,
  message: string | undefined,
): LegacyMeaning | undefined {
  const rows = (LEGACY_MEANINGS[endpoint] ?? []).filter(
    (r) => r.status === status.toUpperCase() && String(r.subCode) === String(subCode),
  );
  const m = norm(message);
  return rows.find((r) => r.message !== undefined && m.includes(r.message)) ?? rows.find((r) => !r.message);
}

/** The meaning of a v2 error: by code (a batch index read as `[i]`), else message, else its HTTP catch-all. */
export function v2Meaning(
  endpoint: EndpointName,
  http: number,
  code: string | undefined,
  message: string | undefined,
): V2Meaning | undefined {
  const rows = (V2_MEANINGS[endpoint] ?? []).filter((r) => r.http === http);
  const c = code?.replace(/\[\d+\]/g, '[i]');
  const m = norm(message);
  return (
    rows.find((r) => r.code !== undefined && r.code === c) ??
    rows.find((r) => r.code === undefined && r.message !== undefined && m.includes(r.message)) ??
    rows.find((r) => r.code === undefined && r.message === undefined)
  );
}

/**
 * A transfer's own status in a status answer (provider-facts.md "Transfer status" and "Long waits",
 * provider-v2.md "Transfer statuses"): the status call's verdict and the wait it names.
 */
export interface TransferStatusMeaningRow {
  readonly status: string;
  readonly code?: string;
  readonly verdict: Verdict | 'failed/reversed';
  readonly subState?: ProviderSubState;
}

export const TRANSFER_STATUS_MEANINGS: readonly TransferStatusMeaningRow[] = [
  { status: 'RECEIVED', verdict: 'pending' },
  { status: 'PENDING', verdict: 'pending' },
  { status: 'PENDING', code: 'SENT_TO_BANK', verdict: 'pending', subState: 'sent_to_bank' },
  {
    status: 'PENDING',
    code: 'SCHEDULED_FOR_NEXT_WORKINGDAY',
    verdict: 'pending',
    subState: 'scheduled_next_working_day',
  },
  { status: 'QUEUED', verdict: 'pending', subState: 'queued' },
  { status: 'APPROVAL_PENDING', verdict: 'pending', subState: 'approval_pending' },
  {
    status: 'APPROVAL_PENDING',
    code: 'VELOCITY_CHECK_FAILED',
    verdict: 'pending',
    subState: 'approval_pending',
  },
  { status: 'SUCCESS', verdict: 'success' },
  { status: 'SUCCESS', code: 'SENT_TO_BENEFICIARY', verdict: 'success' },
  { status: 'FAILED', verdict: 'failed/rejected' },
  { status: 'FAILED', code: 'INSUFFICIENT_BALANCE', verdict: 'failed/rejected+short-of-funds' },
  { status: 'REJECTED', verdict: 'failed/rejected' },
  { status: 'MANUALLY_REJECTED', verdict: 'failed/rejected' },
  { status: 'REVERSED', verdict: 'failed/reversed' },
  // "Transfer triggered; no response from bank": in doubt (issue 29).
  { status: 'ERROR', verdict: 'unknown' },
  { status: 'ON_HOLD', verdict: 'unknown' },
];
