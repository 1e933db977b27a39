import { REMOVE_BENEFICIARY as R } from '../tables/remove-beneficiary.table.js';
import { fail } from '../tables/row.js';
import { addBeneficiary } from './add-beneficiary.handler.js';
import { decodeObject, field, type LegacyEndpoint } from './endpoint.js';

/** POST /payout/v1/removeBeneficiary */
export const removeBeneficiary: LegacyEndpoint = {
  id: 'removeBeneficiary',
  fields: ['beneId'],
  method: 'POST',
  paths: ['/payout/v1/removeBeneficiary'],
  group: 'other',
  summary: 'Remove beneficiary',
  table: R,
  auth: 'bearer',
  row520: addBeneficiary.row520,
  handle({ world, body }) {
    const o = decodeObject(body, ['beneId']);
    const beneId = field(o, 'beneId');
    if (!beneId) fail(R.invalid);
    if (!world.account.beneficiaries.delete(beneId)) fail(R.notFound);
    return { row: R.removed };
  },
};
