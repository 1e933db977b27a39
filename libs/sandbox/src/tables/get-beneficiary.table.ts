import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Get Beneficiary (provider-facts; the interface document shows no table). */
export const GET_BENEFICIARY = {
  found: { subCode: '200', status: 'SUCCESS', message: 'Details of beneficiary', documented: false },
  notFound: { subCode: '404', status: 'ERROR', message: 'Beneficiary does not exist', documented: false },
  ...ACCESS_ROWS,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
