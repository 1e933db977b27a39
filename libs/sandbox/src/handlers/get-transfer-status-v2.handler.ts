import { hiddenByLag } from '../core/state.js';
import { failV2 } from '../tables/v2-common.table.js';
import { V2_TRANSFER_STATUS as R } from '../tables/get-transfer-status-v2.table.js';
import { v2TransferView } from './process-validated-payout.handler.js';
import { type V2Endpoint } from './v2-endpoint.js';

function str(o: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

/** GET /payout/transfers?transfer_id= | ?svc_transfer_id= */
export const v2TransferStatus: V2Endpoint = {
  id: 'v2TransferStatus',
  fields: ['transfer_id', 'svc_transfer_id'],
  method: 'GET',
  paths: ['/payout/transfers'],
  group: 'status',
  summary: 'Get Transfer Status (v2)',
  table: R,
  handle({ world, query, fault }) {
    const transferId = str(query, 'transfer_id');
    const svcId = str(query, 'svc_transfer_id');
    if (!transferId && !svcId) failV2(R.statusIdMissing);
    const account = world.account;
    account.settle();
    const t = transferId ? account.transfers.get(transferId) : account.bySvcId.get(svcId ?? '');
    // A lagging status endpoint does not know a transfer it has applied (statusLagMs).
    if (!t || hiddenByLag(t, world.clock.now(), fault?.statusLagMs))
      failV2(transferId ? R.transferNotFound : R.svcTransferNotFound);
    return v2TransferView(world, t);
  },
};
