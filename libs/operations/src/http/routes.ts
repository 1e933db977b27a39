import { type OpsRoute } from './ops-route.js';
import { ADMIN_ROUTES } from './routes.admin.js';
import { APPROVAL_ROUTES } from './routes.approvals.js';
import { FUNDS_ROUTES } from './routes.funds.js';
import { PAYOUT_ROUTES } from './routes.payouts.js';

/**
 * Every route of the operations API, once: the HTTP edge makes its handlers from this list
 * (apps/payout-service/src/ops.controller.ts) and the OpenAPI document its paths (openapi.ts).
 */
export const OPS_ROUTES: readonly OpsRoute[] = [
  ...PAYOUT_ROUTES,
  ...ADMIN_ROUTES,
  ...APPROVAL_ROUTES,
  ...FUNDS_ROUTES,
];
