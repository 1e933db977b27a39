import { randomBytes } from 'node:crypto';
import { parseAmount, rupees } from '../core/money.js';
import { RECHARGE_ACCOUNTS } from '../core/test-data.js';
import { INTERNAL_TRANSFER as R } from '../tables/internal-transfer.table.js';
import { fail } from '../tables/row.js';
import { decodeObject, field, type LegacyEndpoint } from './endpoint.js';

const TRANSFER_ID_RE = /^[A-Za-z0-9_-]{1,40}$/;

/** POST /payout/v1/internalTransfer: move funds to one of the merchant's recharge accounts. */
export const internalTransfer: LegacyEndpoint = {
  id: 'internalTransfer',
  fields: ['amount', 'rechargeAccount', 'transferId'],
  method: 'POST',
  paths: ['/payout/v1/internalTransfer'],
  group: 'transfer',
  summary: 'Internal Transfer',
  table: R,
  auth: 'bearer',
  row520: R.unknownError,
  initiationKey: 'transferId',
  handle({ world, body }) {
    const o = decodeObject(body, ['amount', 'rechargeAccount', 'transferId']);
    const amount = parseAmount(o.amount);
    if (!amount || amount.decimals > 2 || amount.paise < rupees(1)) fail(R.invalidAmount);
    const rechargeAccount = field(o, 'rechargeAccount');
    if (!rechargeAccount || !/^[A-Za-z0-9]{1,40}$/.test(rechargeAccount)) fail(R.invalidRechargeAccount);
    const given = field(o, 'transferId');
    if (given === undefined || (given !== '' && !TRANSFER_ID_RE.test(given))) fail(R.invalidTransferId);
    const kind = RECHARGE_ACCOUNTS[rechargeAccount];
    if (kind === undefined) fail(R.rechargeNotFound);
    if (kind === 'notConfigured') fail(R.notConfigured);
    const account = world.account;
    account.settle();
    const transferId = given || `INT_${randomBytes(8).toString('hex')}`;
    if (account.balance < amount.paise) {
      account.refuseForBalance('internalTransfer', transferId, amount.paise);
      fail(R.insufficientBalance);
    }
    account.balance -= amount.paise;
    const referenceId = String(account.newReferenceId());
    const now = world.clock.now();
    // The legacy status endpoint answers for internal transfers too (no dedupe: a repeat is a new one).
    account.addInternalTransfer({
      transferId,
      referenceId,
      svcTransferId: referenceId,
      endpoint: 'internalTransfer',
      amount: amount.paise,
      mode: 'internal',
      beneId: '',
      bankAccount: '',
      ifsc: '',
      vpa: '',
      phone: '',
      remarks: '',
      paymentInstrumentId: '',
      addedOn: now,
      steps: [{ at: now, status: 'SUCCESS', statusCode: 'COMPLETED', reason: '' }],
      utr: `SBX${referenceId}`,
      refunded: false,
      debited: true,
    });
    account.receive('internalTransfer', transferId, true, R.success.subCode);
    return { row: R.success, data: { transferId } };
  },
};
