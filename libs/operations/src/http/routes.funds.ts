import { ref } from './openapi-parts.js';
import { type OpsRoute } from './ops-route.js';

/** What each account has committed (issue 32): in flight, waiting, and the balance as last read. */
export const FUNDS_ROUTES: readonly OpsRoute[] = [
  {
    name: 'getFunds',
    method: 'get',
    path: '/ops/funds',
    action: 'read',
    summary:
      'per provider account: the payouts sent and not settled, those waiting to be sent, and the available balance as last read',
    description:
      'In flight: payouts SUBMITTING, PENDING, UNKNOWN or REQUIRES_ATTENTION, and the entries not yet final of batches SUBMITTING, PROCESSING, UNKNOWN or REQUIRES_ATTENTION. Waiting: queued (RECEIVED) and awaiting approval (AWAITING_APPROVAL), payouts and every entry of such batches. A batch counts as its entries, never its total too. Amounts are exact decimals. `balance` is null while no reading of the provider balance is known.',
    answer: {
      status: 200,
      description: 'every configured account, and any other with open payouts',
      schema: ref('Funds'),
    },
    errors: [401],
    run: (s) => s.useCases.getFunds.execute(),
  },
];
