import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Standard Transfer Sync v1.2 (interface document, "Standard Transfer Sync v1.2"). */
export const requestTransferOutcomes: LegacyOutcomeTable = [
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
    meaning: 'Awaiting beneficiary bank; or pending at the bank',
  },
  { status: 'ERROR', subCode: 201, outcome: 'unknown', meaning: 'Transfer triggered; no response from bank' },
  { status: 'PENDING', subCode: 202, outcome: 'pending', meaning: 'Request received; check later' },
  // A re-send of a known transferId: the first send reached the provider, so check its status.
  {
    status: 'ERROR',
    subCode: 400,
    message: 'already exist',
    outcome: 'failed',
    kind: 'duplicate',
    http: 400,
    meaning: 'Transfer Id already exists',
  },
  // The balance could not fund it: a refusal like the row below, counted as a bounce (issue 32).
  {
    status: 'ERROR',
    subCode: 400,
    message: 'insufficient balance',
    outcome: 'failed',
    shortOfFunds: true,
    http: 400,
    meaning: 'Insufficient balance',
  },
  {
    status: 'ERROR',
    subCode: 400,
    outcome: 'failed',
    http: 400,
    meaning: 'Transfer rejected (mode, balance, limits, instrument or bank failure)',
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
  {
    status: 'ERROR',
    subCode: 412,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 412,
    meaning: 'Invalid transferId',
  },
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Invalid beneId, account, IFSC, amount, transferId or remarks',
  },
];
