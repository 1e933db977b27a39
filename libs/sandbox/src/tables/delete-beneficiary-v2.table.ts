import { V2_BENEFICIARY_ROWS } from './create-beneficiary-v2.table.js';
import { V2_BENEFICIARY_NOT_FOUND } from './get-beneficiary-v2.table.js';
import { type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

/** Remove Beneficiary V2 error table. */
export const V2_REMOVE_BENEFICIARY = {
  beneIdMissing: bad('beneficiary_id_missing', 'beneficiary_id is missing in the request'),
  beneIdLengthExceeded: V2_BENEFICIARY_ROWS.beneIdLengthExceeded,
  notFound: V2_BENEFICIARY_NOT_FOUND,
} as const satisfies V2Table;
