import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Add Beneficiary (provider-facts; the interface document shows no table). */
export const ADD_BENEFICIARY = {
  added: { subCode: '200', status: 'SUCCESS', message: 'Beneficiary added successfully', documented: false },
  exists: { subCode: '409', status: 'ERROR', message: 'Beneficiary Id already exists', documented: false },
  invalid: { subCode: '422', status: 'ERROR', message: 'Invalid beneficiary details', documented: false },
  ...ACCESS_ROWS,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
