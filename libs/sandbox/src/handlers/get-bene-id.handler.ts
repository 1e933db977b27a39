import { IFSC_RE } from '../core/test-data.js';
import { GET_BENE_ID as R } from '../tables/get-bene-id.table.js';
import { fail } from '../tables/row.js';
import { queryParam, type LegacyEndpoint } from './endpoint.js';
import { BANK_ACCOUNT_RE } from './transfer-flow.js';

/** GET /payout/v1/getBeneId?bankAccount=&ifsc= */
export const getBeneId: LegacyEndpoint = {
  id: 'getBeneId',
  fields: ['bankAccount', 'ifsc'],
  method: 'GET',
  paths: ['/payout/v1/getBeneId'],
  group: 'other',
  summary: 'Get Beneficiary ID',
  table: R,
  auth: 'bearer',
  row520: R.fetchError,
  handle({ world, query }) {
    const bankAccount = queryParam(query, 'bankAccount');
    const ifsc = queryParam(query, 'ifsc');
    if (bankAccount === undefined || ifsc === undefined) fail(R.invalidAccountAndIfsc);
    if ((bankAccount === '') !== (ifsc === '')) fail(R.onlyOneGiven);
    if (!BANK_ACCOUNT_RE.test(bankAccount) && !IFSC_RE.test(ifsc)) fail(R.invalidAccountAndIfsc);
    if (!IFSC_RE.test(ifsc)) fail(R.invalidIfsc);
    if (!BANK_ACCOUNT_RE.test(bankAccount)) fail(R.invalidAccountAndIfsc);
    for (const b of world.account.beneficiaries.values()) {
      if (b.bankAccount === bankAccount && b.ifsc === ifsc)
        return { row: R.success, data: { beneId: b.beneId } };
    }
    return fail(R.notFound);
  },
};
