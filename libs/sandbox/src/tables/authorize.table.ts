import { COMMON } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Authorize (provider-facts fills in the body). */
export const AUTHORIZE = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Token generated' },
  badCredentials: COMMON.badCredentials,
  ipNotWhitelisted: COMMON.ipNotWhitelisted,
  apisNotEnabled: COMMON.apisNotEnabled,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
