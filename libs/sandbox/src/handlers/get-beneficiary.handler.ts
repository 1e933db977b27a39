import { GET_BENEFICIARY as R } from '../tables/get-beneficiary.table.js';
import { fail } from '../tables/row.js';
import { addBeneficiary } from './add-beneficiary.handler.js';
import { type LegacyEndpoint } from './endpoint.js';

/** GET /payout/v1/getBeneficiary/:beneId */
export const getBeneficiary: LegacyEndpoint = {
  id: 'getBeneficiary',
  method: 'GET',
  paths: ['/payout/v1/getBeneficiary/:beneId'],
  group: 'other',
  summary: 'Get beneficiary',
  table: R,
  auth: 'bearer',
  row520: addBeneficiary.row520,
  handle({ world, params }) {
    const b = world.account.beneficiaries.get(params.beneId ?? '');
    if (!b) fail(R.notFound);
    const { addedAt: _addedAt, ...rest } = b;
    return { row: R.found, data: rest };
  },
};
