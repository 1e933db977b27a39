import { V2_REMOVE_BENEFICIARY as R } from '../tables/delete-beneficiary-v2.table.js';
import { failV2 } from '../tables/v2-common.table.js';
import { beneficiaryView } from './v2-beneficiary.js';
import { queryString, type V2Endpoint } from './v2-endpoint.js';

/** DELETE /payout/beneficiary?beneficiary_id=: the removed Beneficiary, `beneficiary_status: DELETED`. */
export const deleteBeneficiaryV2: V2Endpoint = {
  id: 'deleteBeneficiaryV2',
  fields: ['beneficiary_id'],
  method: 'DELETE',
  paths: ['/payout/beneficiary'],
  group: 'other',
  summary: 'Remove Beneficiary V2',
  table: R,
  handle({ world, query }) {
    const id = queryString(query, 'beneficiary_id') ?? '';
    if (id === '') failV2(R.beneIdMissing);
    if (id.length > 50) failV2(R.beneIdLengthExceeded);
    const store = world.account.beneficiaries;
    const b = store.get(id);
    if (!b) failV2(R.notFound);
    store.delete(id);
    return beneficiaryView(b, true);
  },
};
