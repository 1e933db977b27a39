import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';

/** Get Transfer Status v2 (provider-facts.md). */
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
    code: 'svc_transfer_id_not_found',
    outcome: 'failed',
    kind: 'not-found',
    meaning: 'svc_transfer_id not found',
  },
  ...COMMON_V2_ROWS,
];
