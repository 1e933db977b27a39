import { istDay } from '../core/clock.js';
import { parseAmount, rupees } from '../core/money.js';
import { SELF_WITHDRAWAL as R } from '../tables/self-withdrawal.table.js';
import { fail } from '../tables/row.js';
import { decodeObject, field, type LegacyEndpoint } from './endpoint.js';

const PER_DAY = 3;

/**
 * POST /payout/v1/selfWithdrawal: at most 3 a day, counted per India calendar day on the sandbox
 * clock. Success answers `statusCode` (not `subCode`), as documented.
 */
export const selfWithdrawal: LegacyEndpoint = {
  id: 'selfWithdrawal',
  fields: ['withdrawalId', 'amount', 'remarks'],
  method: 'POST',
  paths: ['/payout/v1/selfWithdrawal'],
  group: 'transfer',
  summary: 'Self Withdrawal',
  table: R,
  auth: 'bearer',
  row520: R.unknownError,
  initiationKey: 'withdrawalId',
  handle({ world, body }) {
    const o = decodeObject(body, ['withdrawalId', 'amount', 'remarks']);
    const withdrawalId = field(o, 'withdrawalId');
    if (!withdrawalId) fail(R.withdrawalIdMissing);
    const amount = parseAmount(o.amount);
    if (!amount || amount.decimals > 2 || amount.paise < rupees(1)) fail(R.invalidAmount);
    const remarks = field(o, 'remarks');
    if (remarks === undefined || remarks.length > 70) fail(R.invalidRemarks);
    const account = world.account;
    const today = istDay(world.clock.now());
    let count = 0;
    for (const w of account.withdrawals) if (istDay(w.at) === today) count += 1;
    if (count >= PER_DAY) fail(R.dailyLimit);
    account.settle();
    if (account.balance < amount.paise) {
      account.refuseForBalance('selfWithdrawal', withdrawalId, amount.paise);
      fail(R.insufficientBalance);
    }
    account.balance -= amount.paise;
    account.withdrawals.push({ withdrawalId, at: world.clock.now() });
    account.receive('selfWithdrawal', withdrawalId, true, '200');
    return {
      row: R.success,
      raw: { status: 'SUCCESS', message: `Withdrawal request ${withdrawalId} submitted`, statusCode: 200 },
    };
  },
};
