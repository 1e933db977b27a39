import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';
import { TRANSFER_V2_FIELD_ROWS } from './transfer-v2.outcomes.js';

/**
 * Batch Transfer V2 (`POST /payout/transfers/batch`, provider-v2.md). A refused entry refuses the
 * whole batch, under `transfers[i].` + the transfer's field code. `batch_transfer_id_already_exists`
 * (like any "already exists") is classified `duplicate` before this table: the batch is looked up.
 */
export const batchTransferV2Outcomes: V2OutcomeTable = [
  {
    http: 400,
    code: 'batch_transfer_id_missing',
    outcome: 'failed',
    kind: 'invalid-request',
    meaning: 'batch_transfer_id missing',
  },
  {
    http: 400,
    code: 'batch_transfer_id_invalid',
    outcome: 'failed',
    kind: 'invalid-request',
    meaning: 'batch_transfer_id invalid',
  },
  ...TRANSFER_V2_FIELD_ROWS.map((r) => ({ ...r, code: `transfers[i].${r.code}` })),
  { http: 400, outcome: 'failed', kind: 'invalid-request', meaning: 'Batch refused as invalid' },
  {
    http: 409,
    code: 'batch_transfer_id_already_exists',
    outcome: 'failed',
    kind: 'duplicate',
    meaning: 'The provider holds this batch_transfer_id: look it up',
  },
  {
    http: 403,
    code: 'apis_not_enabled',
    outcome: 'fatal-config',
    meaning: 'Transfers V2 not enabled for the account',
  },
  // Undocumented for this endpoint: the batch may exist, so it is checked, never taken as a refusal.
  {
    http: 422,
    outcome: 'unknown',
    meaning: 'Unprocessable, undocumented here: the batch may exist; check its status',
  },
  { http: 429, outcome: 'retry-safe', meaning: 'Rate limited by the provider' },
  { http: 500, outcome: 'unknown', meaning: 'Provider error: the batch may exist; check its status' },
  { http: 502, outcome: 'unknown', meaning: 'Bad gateway: the batch may exist; check its status' },
  { http: 503, outcome: 'unknown', meaning: 'Unavailable: the batch may exist; check its status' },
  { http: 504, outcome: 'unknown', meaning: 'Gateway timeout: the batch may exist; check its status' },
  ...COMMON_V2_ROWS,
];
