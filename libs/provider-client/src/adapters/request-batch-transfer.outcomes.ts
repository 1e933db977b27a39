import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Batch Transfer (interface document, "Batch Transfer"). */
export const requestBatchTransferOutcomes: LegacyOutcomeTable = [
  {
    status: 'SUCCESS',
    subCode: 200,
    outcome: 'success',
    meaning: 'Batch requested; check processing status later',
  },
  { status: 'PENDING', subCode: 202, outcome: 'pending', meaning: 'Request received' },
  {
    status: 'ERROR',
    subCode: 403,
    message: 'permission denied',
    outcome: 'fatal-config',
    http: 403,
    meaning: 'Permission denied',
  },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 409,
    message: 'already exist',
    outcome: 'failed',
    kind: 'duplicate',
    http: 409,
    meaning: 'Batch transfer ID already exists',
  },
  {
    status: 'ERROR',
    subCode: 409,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 409,
    meaning: 'Invalid batch format',
  },
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Batch id, format or entries missing or invalid; permission denied',
  },
  // 520 here can mean the batch was not created or was: the status query decides.
  {
    status: 'ERROR',
    subCode: 520,
    message: 'batch',
    outcome: 'unknown',
    http: 520,
    meaning: 'Batch request failed',
  },
];
