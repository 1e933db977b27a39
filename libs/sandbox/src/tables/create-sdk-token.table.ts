import { type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

/** Create SDK authentication token. */
export const V2_SDK_TOKEN = {
  appIdInvalid: bad('app_id_invalid', 'app_id is required'),
  productInvalid: bad('product_invalid', 'product must be VKYC'),
  metadataInvalid: bad('metadata_invalid', 'metadata must be an object with vkyc_request_id'),
  userInvalid: bad(
    'authenticated_user_invalid',
    'authenticated_user must have identifier_type and identifier_value',
  ),
} as const satisfies V2Table;
