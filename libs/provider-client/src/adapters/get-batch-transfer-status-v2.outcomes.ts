import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';

/** Get Batch Transfer Status V2 (`GET /payout/transfers/batch`, provider-v2.md). */
export const getBatchTransferStatusV2Outcomes: V2OutcomeTable = [
  {
    http: 404,
    code: 'batch_transfer_id_not_found',
    outcome: 'failed',
    kind: 'not-found',
    meaning: 'batch_transfer_id not found',
  },
  // The published example's code for an unknown cf id is literally `cf_batch_transfer_id` (sic).
  {
    http: 404,
    code: 'cf_batch_transfer_id',
    outcome: 'failed',
    kind: 'not-found',
    meaning: 'cf_batch_transfer_id not found',
  },
  {
    http: 404,
    code: 'cf_batch_transfer_id_not_found',
    outcome: 'failed',
    kind: 'not-found',
    meaning: 'cf_batch_transfer_id not found',
  },
  // Any other 404 (another code, none, a proxy's page) is unclear: asked again, never "not found".
  { http: 404, outcome: 'unknown', meaning: 'A 404 that does not say the batch is unknown' },
  {
    http: 400,
    code: 'batch_transfer_id_missing',
    outcome: 'failed',
    kind: 'invalid-request',
    meaning: 'Neither batch_transfer_id nor cf_batch_transfer_id',
  },
  {
    http: 403,
    code: 'apis_not_enabled',
    outcome: 'fatal-config',
    meaning: 'Transfers V2 not enabled for the account',
  },
  { http: 429, outcome: 'retry-safe', meaning: 'Rate limited by the provider' },
  { http: 500, outcome: 'unknown', meaning: 'Provider error: asked again later' },
  ...COMMON_V2_ROWS,
];
