import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Get Transfer Status v1.2 (provider-facts.md). SUCCESS here means "data retrieved". */
export const getTransferStatusOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Data retrieved' },
  ...COMMON_LEGACY_ROWS,
  // "Not found" can settle a payout FAILED (not received, after a settle window): only the
  // provider's own words that the transfer is unknown count. Any other 404 (a gateway's, a
  // proxy's, another message) is unclear and asked again later, never "not found" (issue 21).
  {
    status: 'ERROR',
    subCode: 404,
    message: 'transferid is invalid or does not exist',
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'TransferId is invalid or does not exist',
  },
  {
    status: 'ERROR',
    subCode: 404,
    message: 'referenceid is invalid or does not exist',
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'ReferenceId is invalid or does not exist',
  },
  {
    status: 'ERROR',
    subCode: 404,
    outcome: 'unknown',
    http: 404,
    meaning: 'A 404 that does not say the transfer is unknown',
  },
];
