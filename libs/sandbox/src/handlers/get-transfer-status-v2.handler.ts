import { hiddenByLag } from '../core/state.js';
import { failV2 } from '../tables/v2-common.table.js';
import { V2_TRANSFER_STATUS as R } from '../tables/get-transfer-status-v2.table.js';
import { queryString as str, type V2Endpoint } from './v2-endpoint.js';
import { v2TransferView } from './v2-transfer-record.js';

/**
 * GET /payout/transfers?transfer_id= | ?cf_transfer_id= (the provider's id; the official SDK's
 * parameter) | ?svc_transfer_id= (the interface document's neutral name for it, which the
 * service's client still sends).
 */
export const getTransferStatusV2: V2Endpoint = {
  id: 'getTransferStatusV2',
  fields: ['transfer_id', 'cf_transfer_id', 'svc_transfer_id'],
  method: 'GET',
  paths: ['/payout/transfers'],
  group: 'status',
  summary: 'Get Transfer Status (v2)',
  table: R,
  handle({ world, query, fault }) {
    const transferId = str(query, 'transfer_id');
    const cfId = str(query, 'cf_transfer_id');
    const svcId = str(query, 'svc_transfer_id');
    const providerId = cfId || svcId;
    if (!transferId && !providerId) failV2(R.statusIdMissing);
    const account = world.account;
    account.settle();
    const t = transferId ? account.transfers.get(transferId) : account.bySvcId.get(providerId ?? '');
    // A lagging status endpoint does not know a transfer it has applied (statusLagMs).
    if (!t || hiddenByLag(t, world.clock.now(), fault?.statusLagMs))
      failV2(transferId ? R.transferNotFound : cfId ? R.cfTransferNotFound : R.svcTransferNotFound);
    return v2TransferView(world, t);
  },
};
