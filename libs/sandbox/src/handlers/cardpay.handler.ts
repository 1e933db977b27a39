import { parseAmount, rupees } from '../core/money.js';
import { CARD_TOKENS, type Outcome } from '../core/test-data.js';
import { CARDPAY as R } from '../tables/cardpay.table.js';
import { fail } from '../tables/row.js';
import { decodeObject, field, type LegacyEndpoint } from './endpoint.js';
import { commitTransfer, REMARKS_RE, transferResult, type TransferRows } from './transfer-flow.js';

const FIELDS = [
  'token',
  'amount',
  'transferId',
  'cardType',
  'remarks',
  'name',
  'networkType',
  'cryptogram',
  'tokenExpiry',
  'tokenPANSequenceNumber',
];
const TRANSFER_ID_RE = /^[A-Za-z0-9_-]{1,40}$/;
const CARD_TOKEN_RE = /^[A-Za-z0-9]{12,40}$/;

/**
 * CardPay's table is short: the shared transfer flow's answers are mapped onto its nearest rows
 * (a daily limit reads as "Insufficient balance", a bank refusal as "Invalid token details").
 * Bank-account rules never apply to cards, so most of these rows are unreachable.
 */
const ROWS: TransferRows = {
  success: R.success,
  scheduled: R.pendingAtBank,
  pendingAtBank: R.pendingAtBank,
  awaitingBene: R.pendingAtBank,
  received: R.pendingAtBank,
  transferIdExists: R.transferIdExists,
  insufficientBalance: R.insufficientBalance,
  beneLimit: R.insufficientBalance,
  accountLimit: R.insufficientBalance,
  bankFailed: R.invalidTokenDetails,
  walletFailed: R.invalidTokenDetails,
  invalidAccountOrIfsc: R.invalidAccountOrIfsc,
  invalidIfsc: R.invalidAccountOrIfsc,
  beneNotAllowed: R.invalidTokenDetails,
  beneNotFound: R.invalidTokenDetails,
  amountRange: R.amountBelowOne,
  wait30: R.invalidTokenDetails,
  multipleInstruments: R.invalidTokenDetails,
  instrumentInvalidForMode: R.invalidTokenDetails,
  instrumentNotAvailable: R.invalidTokenDetails,
};

function cardOutcome(token: string): Outcome | undefined {
  if ((CARD_TOKENS.success as readonly string[]).includes(token)) return 'success';
  if ((CARD_TOKENS.failure as readonly string[]).includes(token)) return 'pendingThenFailure';
  if (token === CARD_TOKENS.invalidAccount) return 'invalidAccount';
  return undefined;
}

/** POST /payout/v1/cardpay: payout to a tokenised card. */
export const cardpay: LegacyEndpoint = {
  id: 'cardpay',
  fields: FIELDS,
  method: 'POST',
  paths: ['/payout/v1/cardpay'],
  group: 'transfer',
  summary: 'CardPay',
  table: R,
  auth: 'bearer',
  row520: R.unknownError,
  initiationKey: 'transferId',
  async handle({ world, body }) {
    const o = decodeObject(body, FIELDS);
    const token = field(o, 'token');
    const transferId = field(o, 'transferId');
    if (token === '' || transferId === '' || o.amount === undefined) fail(R.missingParams);
    if (transferId === undefined || !TRANSFER_ID_RE.test(transferId)) fail(R.invalidTransferId);
    if (token === undefined || !CARD_TOKEN_RE.test(token)) fail(R.invalidTokenDetails);
    const amount = parseAmount(o.amount);
    if (!amount || amount.decimals > 2 || amount.paise < rupees(1)) fail(R.amountBelowOne);
    const cardType = field(o, 'cardType') || 'CREDIT';
    if (cardType !== 'DEBIT' && cardType !== 'CREDIT') fail(R.invalidCardType);
    const network = field(o, 'networkType');
    if (network === undefined || (network !== '' && network !== 'VISA' && network !== 'MASTERCARD')) {
      fail(R.invalidNetworkType);
    }
    const name = field(o, 'name');
    if (name === undefined || (name !== '' && !/^[A-Za-z][A-Za-z .'-]{0,99}$/.test(name)))
      fail(R.invalidName);
    const remarks = field(o, 'remarks');
    if (remarks === undefined || !REMARKS_RE.test(remarks)) fail(R.invalidRemarks);
    const cryptogram = field(o, 'cryptogram');
    const expiry = field(o, 'tokenExpiry');
    const seq = field(o, 'tokenPANSequenceNumber');
    if (cryptogram === undefined || cryptogram.length > 600) fail(R.invalidTokenDetails);
    if (expiry === undefined || (expiry !== '' && !/^\d{4}-(0[1-9]|1[0-2])$/.test(expiry))) {
      fail(R.invalidTokenDetails);
    }
    if (o.tokenExpiry === null || (network === 'MASTERCARD' && expiry === '')) fail(R.invalidTokenDetails);
    if (seq === undefined || !/^[A-Za-z0-9]{0,3}$/.test(seq)) fail(R.invalidTokenDetails);
    const outcome = cardOutcome(token);
    if (outcome === undefined) fail(R.invalidTokenDetails);
    const { row, record } = await commitTransfer(
      world,
      {
        endpoint: 'cardpay',
        transferId,
        amount: amount.paise,
        mode: 'card',
        beneId: '',
        bankAccount: '',
        ifsc: '',
        vpa: '',
        phone: '',
        remarks,
        paymentInstrumentId: '',
        outcome,
      },
      ROWS,
    );
    return row.status === 'ERROR' ? { row } : { row, data: transferResult(world, record) };
  },
};
