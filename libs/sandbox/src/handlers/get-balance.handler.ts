import { balanceOf } from '../core/balance.js';
import { formatPaise } from '../core/money.js';
import { PAYMENT_INSTRUMENTS } from '../core/test-data.js';
import { GET_BALANCE as R } from '../tables/get-balance.table.js';
import { fail } from '../tables/row.js';
import { queryParam, type LegacyEndpoint } from './endpoint.js';

/**
 * GET /payout/v1/getBalance and GET /payout/v1.2/getBalance (bearer): the merchant's ledger
 * balance and available balance (ledger minus pending transfers), as decimal strings. v1.2 takes
 * an optional `paymentInstrumentId`; the sandbox keeps one balance per merchant, so a known
 * instrument reads the same balance and an unknown one is a 422. A merchant on the v2 API reads
 * it here too (the provider's v2 Get Balance page points to this path), after the v1 authorize.
 */
export const getBalance: LegacyEndpoint = {
  id: 'getBalance',
  fields: ['paymentInstrumentId'],
  method: 'GET',
  paths: ['/payout/v1/getBalance', '/payout/v1.2/getBalance'],
  group: 'other',
  summary: 'Get Balance',
  table: R,
  auth: 'bearer',
  row520: R.unknownError,
  handle({ world, query }) {
    const instrument = queryParam(query, 'paymentInstrumentId');
    if (instrument === undefined || (instrument !== '' && PAYMENT_INSTRUMENTS[instrument] === undefined))
      fail(R.instrumentInvalid);
    const { ledger, available } = balanceOf(world.account, world.clock.now());
    return {
      row: R.success,
      data: { balance: formatPaise(ledger), availableBalance: formatPaise(available) },
    };
  },
};
