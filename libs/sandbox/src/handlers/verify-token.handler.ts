import { VERIFY_TOKEN } from '../tables/verify-token.table.js';
import { COMMON } from '../tables/common.table.js';
import { type LegacyEndpoint } from './endpoint.js';

/** POST /payout/v1/verifyToken */
export const verifyToken: LegacyEndpoint = {
  id: 'verifyToken',
  method: 'POST',
  paths: ['/payout/v1/verifyToken'],
  group: 'authorize',
  summary: 'Verify token',
  table: VERIFY_TOKEN,
  auth: 'bearer',
  row520: COMMON.unknownError,
  handle() {
    return { row: VERIFY_TOKEN.success };
  },
};
