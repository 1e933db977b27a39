import { parseListHeldForFunds } from '../use-cases/list-held-for-funds/list-held-for-funds.use-case.js';
import { MAX_PAGE } from '../search.js';
import { ACCOUNT, queryParam, ref } from './openapi-parts.js';
import { type OpsRoute } from './ops-route.js';

/**
 * What each account has committed (issue 32): in flight, waiting, and the balance as last read;
 * and what an account holds for funds (ADR 0027).
 */
export const FUNDS_ROUTES: readonly OpsRoute[] = [
  {
    name: 'getFunds',
    method: 'get',
    path: '/ops/funds',
    action: 'read',
    summary:
      'per provider account: the payouts sent and not settled, those waiting to be sent (held for funds among them), and the available balance as last read',
    description:
      "In flight: payouts SUBMITTING, PENDING, UNKNOWN or REQUIRES_ATTENTION, and the entries not yet final of batches SUBMITTING, PROCESSING, UNKNOWN or REQUIRES_ATTENTION. Waiting: queued (RECEIVED), awaiting approval (AWAITING_APPROVAL) and held for funds (HELD_FOR_FUNDS: the available balance has no room for them yet), payouts and every entry of such batches. A batch counts as its entries, never its total too. Amounts are exact decimals. `heldForFunds.oldestSince` is when the longest-held of them was held (null when none is); `hold` is the account's holding for funds (FUNDS_HOLD: the threshold kept back and the maximum hold, after which a held payout or batch ends REJECTED, funds_hold_expired), null while holding is off for it. `balance` is null while no reading of the provider balance is known.",
    answer: {
      status: 200,
      description: 'every configured account, and any other with open payouts',
      schema: ref('Funds'),
    },
    errors: [401],
    run: (s) => s.useCases.getFunds.execute(),
  },
  {
    name: 'listHeldForFunds',
    method: 'get',
    path: '/ops/funds/{accountId}/held',
    action: 'read',
    summary: "one account's payouts and batches held for funds (HELD_FOR_FUNDS), oldest first",
    description:
      "What waits for the provider's available balance to have room for it (ADR 0027): each payout, and each batch whole (its total and number of entries), with when it was held and why (`insufficient_funds`, `no_balance_reading`). It is sent when a reading shows room for it, or ends REJECTED (`funds_hold_expired`) once held past the account's maximum hold. An account not configured is 404 unless it still has something held.",
    parameters: [
      ACCOUNT,
      queryParam('limit', `page size, 1 to ${MAX_PAGE} (default 100)`, { type: 'integer' }),
      queryParam('after', '`next` of the previous page'),
    ],
    answer: { status: 200, description: 'one page', schema: ref('HeldForFundsPage') },
    errors: [400, 401, 404],
    run: (s, c) =>
      s.useCases.listHeldForFunds.execute(parseListHeldForFunds(c.params['accountId']!, c.query)),
  },
];
