import { V2_STANDARD_TRANSFER as R } from '../tables/transfer-v2.table.js';
import { failV2 } from '../tables/v2-common.table.js';
import { decodeV2Object, type V2Endpoint } from './v2-endpoint.js';
import { decodeV2Transfer, resolveV2Instrument, v2Outcome, V2_TRANSFER_KEYS } from './v2-transfer-flow.js';
import { recordV2Transfer, v2TransferView } from './v2-transfer-record.js';

const ROWS = { fields: R, beneNotFound: R.beneNotFound, transferIdExists: R.transferIdExists };

/**
 * POST /payout/transfers: Standard Transfer V2, to a registered beneficiary (`beneficiary_id`) or
 * to inline bank account, UPI, wallet or card details. Accepted transfers answer 200 with the
 * Transfer object, including those FAILED or REJECTED at once; the test accounts drive outcomes.
 */
export const transferV2: V2Endpoint = {
  id: 'transferV2',
  fields: V2_TRANSFER_KEYS,
  method: 'POST',
  paths: ['/payout/transfers'],
  group: 'transfer',
  summary: 'Standard Transfer V2',
  table: R,
  initiationKey: 'transfer_id',
  async handle({ world, body }) {
    const draft = decodeV2Transfer(decodeV2Object(body, V2_TRANSFER_KEYS), R);
    const account = world.account;
    if (account.transferIdTaken(draft.transferId)) failV2(R.transferIdExists);
    const instrument = resolveV2Instrument(account.beneficiaries, draft, ROWS);
    const outcome = v2Outcome(draft.mode, instrument);
    // A sandbox addition, as on v1: this account stands for a beneficiary the provider does not know.
    if (outcome === 'beneNotFound') failV2(R.beneNotFound);
    const record = recordV2Transfer(world, 'transferV2', draft, instrument, outcome);
    // The "25 s with no answer, then success" account: the answer waits on the sandbox clock.
    if (outcome === 'hangThenSuccess') await world.clock.sleep(world.hangMs);
    return v2TransferView(world, record);
  },
};
