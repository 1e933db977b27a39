import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Direct Transfer v1.2 (interface document, "Direct Transfer v1.2"). */
export const directTransferOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Transfer completed' },
  // Not paid yet: the bank's next working day decides (issue 29). Never SUCCESS on this answer.
  {
    status: 'SUCCESS',
    subCode: 201,
    outcome: 'pending',
    subState: 'scheduled_next_working_day',
    meaning: 'Scheduled for next working day',
  },
  {
    status: 'PENDING',
    subCode: 201,
    outcome: 'pending',
    subState: 'sent_to_bank',
    meaning: 'Awaiting beneficiary bank confirmation; or pending at the bank',
  },
  { status: 'PENDING', subCode: 202, outcome: 'pending', meaning: 'Request received; check status later' },
  // The document gives 409 for a duplicate (below); the provider answers 400 as well. Any
  // "already exists" is a duplicate whatever its code (classifyLegacy); this row documents it.
  {
    status: 'ERROR',
    subCode: 400,
    message: 'already exist',
    outcome: 'failed',
    kind: 'duplicate',
    http: 400,
    meaning: 'Transfer ID already exists',
  },
  {
    status: 'ERROR',
    subCode: 400,
    outcome: 'failed',
    http: 400,
    meaning: 'Payment instrument problem or transfer failed at the bank',
  },
  {
    status: 'ERROR',
    subCode: 403,
    message: 'beneficiary not allowed',
    outcome: 'failed',
    http: 403,
    meaning: 'Transfer to this beneficiary not allowed',
  },
  {
    status: 'ERROR',
    subCode: 403,
    message: 'transfer mode not available',
    outcome: 'failed',
    http: 403,
    meaning: 'Transfer mode not available for the account',
  },
  {
    status: 'ERROR',
    subCode: 403,
    message: 'feature not available',
    outcome: 'fatal-config',
    http: 403,
    meaning: 'Feature not available for the account',
  },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 404,
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'Beneficiary does not exist',
  },
  // Duplicates are 409 here (400 on requestTransfer).
  {
    status: 'ERROR',
    subCode: 409,
    outcome: 'failed',
    kind: 'duplicate',
    http: 409,
    meaning: 'Transfer ID already exists',
  },
  // The balance could not fund it: a refusal like the row below, counted as a bounce (issue 32).
  {
    status: 'ERROR',
    subCode: 412,
    message: 'insufficient balance',
    outcome: 'failed',
    shortOfFunds: true,
    http: 412,
    meaning: 'Insufficient balance',
  },
  {
    status: 'ERROR',
    subCode: 412,
    outcome: 'failed',
    http: 412,
    meaning: 'Missing field, limits, balance, or mode not enabled',
  },
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Invalid amount, transferId, beneficiary details, IFSC or remarks',
  },
];
