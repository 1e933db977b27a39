import { parseAmount, rupees } from '../core/money.js';
import { bankOutcome, FAILING_WALLET_PHONE, vpaOutcome, type Outcome } from '../core/test-data.js';
import { type Beneficiary } from '../core/state.js';
import { REQUEST_TRANSFER as R } from '../tables/request-transfer.table.js';
import { fail } from '../tables/row.js';
import { decodeObject, field, type LegacyEndpoint } from './endpoint.js';
import {
  BANK_MODES,
  checkAmountRange,
  checkInstrument,
  checkWait30,
  commitTransfer,
  REMARKS_RE,
  TRANSFER_ID_RE,
  TRANSFER_MODES,
  transferResult,
  WALLET_MODES,
} from './transfer-flow.js';

const FIELDS = ['beneId', 'amount', 'transferId', 'transferMode', 'paymentInstrumentId', 'remarks'];
export const BENE_ID_RE = /^[A-Za-z0-9]{1,60}$/;

function modeFits(mode: string, b: Beneficiary): boolean {
  if (mode === 'upi') return b.vpa !== '';
  if (WALLET_MODES.includes(mode)) return b.phone !== '';
  return b.bankAccount !== '' && b.ifsc !== '';
}

function outcomeFor(mode: string, b: Beneficiary): Outcome {
  if (mode === 'upi') return vpaOutcome(b.vpa);
  if (WALLET_MODES.includes(mode)) return b.phone === FAILING_WALLET_PHONE ? 'bankFailed' : 'success';
  return bankOutcome(b.bankAccount, b.ifsc);
}

/** POST /payout/v1.2/requestTransfer: synchronous transfer to a registered beneficiary. */
export const requestTransfer: LegacyEndpoint = {
  id: 'requestTransfer',
  fields: FIELDS,
  method: 'POST',
  paths: ['/payout/v1.2/requestTransfer'],
  group: 'transfer',
  summary: 'Standard Transfer Sync v1.2',
  table: R,
  auth: 'bearer',
  row520: R.noResponse,
  initiationKey: 'transferId',
  async handle({ world, body }) {
    const o = decodeObject(body, FIELDS);
    const transferId = field(o, 'transferId');
    if (transferId === '') fail(R.transferIdMissing);
    if (transferId === undefined || !TRANSFER_ID_RE.test(transferId)) fail(R.invalidTransferId);
    const beneId = field(o, 'beneId');
    if (!beneId || !BENE_ID_RE.test(beneId)) fail(R.invalidBeneId);
    const amount = parseAmount(o.amount);
    if (!amount) fail(R.invalidAmount);
    if (amount.decimals > 2) fail(R.amountDecimals);
    if (amount.paise < rupees(1)) fail(R.amountBelowOne);
    const mode = field(o, 'transferMode') || 'banktransfer';
    if (!(TRANSFER_MODES as readonly string[]).includes(mode)) fail(R.invalidMode);
    const remarks = field(o, 'remarks');
    if (remarks === undefined || !REMARKS_RE.test(remarks)) fail(R.invalidRemarks);
    const pid = field(o, 'paymentInstrumentId');
    if (pid === undefined) fail(R.instrumentNotAvailable);
    const account = world.account;
    const bene = account.beneficiaries.get(beneId);
    if (!bene) fail(R.beneNotFound);
    if (account.flags.disabledModes.includes(mode)) fail(R.modeNotEnabled);
    checkInstrument(account, pid, mode, R);
    if (!modeFits(mode, bene)) fail(R.modeInvalidForBene);
    checkAmountRange(amount.paise, mode, R);
    const outcome = outcomeFor(mode, bene);
    const input = {
      endpoint: 'requestTransfer' as const,
      transferId,
      amount: amount.paise,
      mode,
      beneId,
      bankAccount: BANK_MODES.includes(mode) ? bene.bankAccount : '',
      ifsc: BANK_MODES.includes(mode) ? bene.ifsc : '',
      vpa: mode === 'upi' ? bene.vpa : '',
      phone: bene.phone,
      remarks,
      paymentInstrumentId: pid,
      outcome,
    };
    checkWait30(world, input, R);
    if (WALLET_MODES.includes(mode) && outcome === 'bankFailed') {
      if (account.transferIdTaken(transferId)) fail(R.transferIdExists);
      fail(R.walletFailed);
    }
    const { row, record } = await commitTransfer(world, input, R);
    return row.status === 'ERROR' ? { row } : { row, data: transferResult(world, record) };
  },
};
