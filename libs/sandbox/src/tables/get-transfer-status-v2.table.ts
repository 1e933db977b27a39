import { type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

/** Get Transfer Status (v2) error table (provider-facts; sandbox rows where it is silent). */
export const V2_TRANSFER_STATUS = {
  statusIdMissing: bad('transfer_id_missing', 'transfer_id or svc_transfer_id is required'),
  transferNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'transfer_id_not_found',
    message: 'transfer_id does not exist',
    documented: false,
  },
  svcTransferNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'svc_transfer_id_not_found',
    message: 'svc_transfer_id does not exist',
    documented: false,
  },
} as const satisfies V2Table;
