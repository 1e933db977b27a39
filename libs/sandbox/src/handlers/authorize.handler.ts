import { AUTHORIZE } from '../tables/authorize.table.js';
import { COMMON } from '../tables/common.table.js';
import { type LegacyEndpoint } from './endpoint.js';

/**
 * POST /payout/v1/authorize. Credentials and the source check run in the route wrapper (they are
 * shared with every legacy call); this only mints the token.
 */
export const authorize: LegacyEndpoint = {
  id: 'authorize',
  method: 'POST',
  paths: ['/payout/v1/authorize'],
  group: 'authorize',
  summary: 'Authorize (legacy bearer token)',
  table: AUTHORIZE,
  auth: 'credentials',
  row520: COMMON.unknownError,
  handle({ world, source }) {
    const { token, expiry } = world.tokens.issue(world.merchant.clientId, source);
    return { row: AUTHORIZE.success, data: { token, expiry } };
  },
};
