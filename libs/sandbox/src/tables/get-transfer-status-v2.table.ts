import { type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

/** Get Transfer Status V2 error table (provider-v2.md; sandbox rows where it is silent). */
export const V2_TRANSFER_STATUS = {
  statusIdMissing: bad('transfer_id_missing', 'transfer_id or cf_transfer_id is required'),
  transferNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'transfer_id_not_found',
    message: 'transfer_id does not exist',
  },
  cfTransferNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'cf_transfer_id_not_found',
    message: 'cf_transfer_id does not exist',
  },
  // The interface document's neutral name for cf_transfer_id, still read by the service's client
  // until it moves to the provider's name: answered for `?svc_transfer_id=`.
  svcTransferNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'svc_transfer_id_not_found',
    message: 'svc_transfer_id does not exist',
    documented: false,
  },
} as const satisfies V2Table;
