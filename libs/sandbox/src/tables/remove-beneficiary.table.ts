import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Remove Beneficiary (provider-facts; the interface document shows no table). */
export const REMOVE_BENEFICIARY = {
  removed: { subCode: '200', status: 'SUCCESS', message: 'Beneficiary removed', documented: false },
  notFound: { subCode: '404', status: 'ERROR', message: 'Beneficiary does not exist', documented: false },
  invalid: { subCode: '422', status: 'ERROR', message: 'Invalid beneficiary details', documented: false },
  ...ACCESS_ROWS,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
