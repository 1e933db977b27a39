import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/**
 * Get Balance error table (`GET /payout/v1/getBalance`, `GET /payout/v1.2/getBalance`): the
 * provider's documented 200 and 403 examples; its 422 is declared without a message.
 */
export const GET_BALANCE = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Ledger balance for the account' },
  ...ACCESS_ROWS,
  instrumentInvalid: {
    subCode: '422',
    status: 'ERROR',
    message: 'Invalid paymentInstrumentId',
    documented: false,
  },
  tooManyRequests: COMMON.tooManyRequests,
  unknownError: COMMON.unknownError,
} as const satisfies LegacyTable;
