import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Verify Token. */
export const VERIFY_TOKEN = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Token is valid' },
  ...ACCESS_ROWS,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
