import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';

/** Get Transfer Status v2 (provider-facts.md; cf_transfer_id_not_found from the v2 spec). */
export const getTransferStatusV2Outcomes: V2OutcomeTable = [
  {
    http: 404,
    code: 'transfer_id_not_found',
    outcome: 'failed',
    kind: 'not-found',
    meaning: 'transfer_id not found',
  },
  {
    http: 404,
    code: 'cf_transfer_id_not_found',
    outcome: 'failed',
    kind: 'not-found',
    meaning: 'cf_transfer_id not found',
  },
  {
    http: 404,
    code: 'svc_transfer_id_not_found',
    outcome: 'failed',
    kind: 'not-found',
    meaning: 'svc_transfer_id not found',
  },
  // Only these codes say the transfer is unknown; any other 404 (another code, none, a proxy's
  // page) is unclear and asked again later, never "not found" (issue 21).
  { http: 404, outcome: 'unknown', meaning: 'A 404 that does not say the transfer is unknown' },
  ...COMMON_V2_ROWS,
];
