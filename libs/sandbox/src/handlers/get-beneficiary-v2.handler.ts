import { V2_GET_BENEFICIARY as R } from '../tables/get-beneficiary-v2.table.js';
import { failV2 } from '../tables/v2-common.table.js';
import { beneficiaryView, checkAccount, checkBeneId } from './v2-beneficiary.js';
import { queryString, type V2Endpoint } from './v2-endpoint.js';

/** GET /payout/beneficiary?beneficiary_id= | ?bank_account_number=&bank_ifsc= (replaces v1 getBeneId). */
export const getBeneficiaryV2: V2Endpoint = {
  id: 'getBeneficiaryV2',
  fields: ['beneficiary_id', 'bank_account_number', 'bank_ifsc'],
  method: 'GET',
  paths: ['/payout/beneficiary'],
  group: 'other',
  summary: 'Get Beneficiary V2',
  table: R,
  handle({ world, query }) {
    const id = queryString(query, 'beneficiary_id') ?? '';
    const account = queryString(query, 'bank_account_number') ?? '';
    const ifsc = queryString(query, 'bank_ifsc') ?? '';
    if (id !== '' && account !== '' && ifsc !== '') failV2(R.tooManyParams);
    const store = world.account.beneficiaries;
    if (id !== '') {
      checkBeneId(id, R);
      const b = store.get(id);
      if (!b) failV2(R.notFound);
      return beneficiaryView(b);
    }
    if (account === '' && ifsc === '') failV2(R.identifiersMissing);
    checkAccount(account, ifsc, R);
    // An account registered with another IFSC is not found either (as the provider documents).
    for (const b of store.values())
      if (b.bankAccount === account && b.ifsc === ifsc) return beneficiaryView(b);
    return failV2(R.notFound);
  },
};
