import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';
import { type StatusOutcome } from './legacy-decoders.js';

/** Get Transfer Status v1.2 (provider-facts.md). SUCCESS here means "data retrieved". */
export const getTransferStatusOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Data retrieved' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 404,
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'TransferId or ReferenceId is invalid or does not exist',
  },
];

/**
 * The transfer's own status decides the outcome of a status query. SUCCESS can later become
 * REVERSED, so a reversal is reported as a terminal failure of its own kind.
 */
export const legacyTransferStatusOutcomes: Readonly<Record<string, StatusOutcome>> = {
  RECEIVED: { outcome: 'pending' },
  PENDING: { outcome: 'pending' },
  SUCCESS: { outcome: 'success' },
  FAILED: { outcome: 'failed', kind: 'rejected' },
  REJECTED: { outcome: 'failed', kind: 'rejected' },
  REVERSED: { outcome: 'failed', kind: 'reversed' },
};
