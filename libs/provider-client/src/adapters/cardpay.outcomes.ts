import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** CardPay (interface document, "CardPay"). */
export const cardpayOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Completed' },
  {
    status: 'PENDING',
    subCode: 201,
    outcome: 'pending',
    subState: 'sent_to_bank',
    meaning: 'Pending at the bank',
  },
  {
    status: 'ERROR',
    subCode: 400,
    message: 'exist',
    outcome: 'failed',
    kind: 'duplicate',
    http: 400,
    meaning: 'Transfer ID exists',
  },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 412,
    outcome: 'failed',
    shortOfFunds: true,
    http: 412,
    meaning: 'Insufficient balance',
  },
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Invalid card token details, amount, name, networkType, cardType or transferId',
  },
];
