import { parseAmount, rupees } from '../core/money.js';
import { bankOutcome, FAILING_WALLET_PHONE, IFSC_RE, vpaOutcome, type Outcome } from '../core/test-data.js';
import { DIRECT_TRANSFER as R } from '../tables/direct-transfer.table.js';
import { fail } from '../tables/row.js';
import { decodeObject, field, type LegacyEndpoint, type Obj } from './endpoint.js';
import {
  BANK_ACCOUNT_RE,
  BANK_MODES,
  checkAmountRange,
  checkInstrument,
  checkWait30,
  commitTransfer,
  refuseRepeat,
  REMARKS_RE,
  TRANSFER_ID_RE,
  TRANSFER_MODES,
  transferResult,
  WALLET_MODES,
  type TransferInput,
} from './transfer-flow.js';

const FIELDS = [
  'amount',
  'transferId',
  'transferMode',
  'beneDetails',
  'paymentInstrumentId',
  'remarks',
  'tag',
];
const BENE_FIELDS = ['name', 'phone', 'email', 'address1', 'bankAccount', 'ifsc', 'vpa'];
const TAG_RE = /^[A-Za-z0-9_-]{1,50}$/;

function decodeBene(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(R.invalidBeneDetails);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Obj)) {
    if (!BENE_FIELDS.includes(k) || (x !== null && typeof x !== 'string')) fail(R.invalidBeneDetails);
    out[k] = x ?? '';
  }
  const name = out.name ?? '';
  if (!/^[A-Za-z][A-Za-z .'-]{0,99}$/.test(name)) fail(R.invalidBeneDetails);
  if (out.email && !/^[^@\s]+@[^@\s]+$/.test(out.email)) fail(R.invalidBeneDetails);
  return out;
}

function outcomeFor(mode: string, bene: Record<string, string>): Outcome {
  if (mode === 'upi') return vpaOutcome(bene.vpa ?? '');
  if (WALLET_MODES.includes(mode)) return bene.phone === FAILING_WALLET_PHONE ? 'bankFailed' : 'success';
  return bankOutcome(bene.bankAccount ?? '', bene.ifsc ?? '');
}

/** POST /payout/v1.2/directTransfer: synchronous transfer, beneficiary details inline. */
export const directTransfer: LegacyEndpoint = {
  id: 'directTransfer',
  fields: FIELDS,
  method: 'POST',
  paths: ['/payout/v1.2/directTransfer'],
  group: 'transfer',
  summary: 'Direct Transfer v1.2',
  table: R,
  auth: 'bearer',
  row520: R.noResponse,
  initiationKey: 'transferId',
  async handle({ world, body }) {
    const o = decodeObject(body, FIELDS);
    if (o.transferId === undefined || o.amount === undefined || o.beneDetails === undefined)
      fail(R.missingParams);
    const transferId = field(o, 'transferId');
    if (transferId === undefined || !TRANSFER_ID_RE.test(transferId)) fail(R.invalidTransferId);
    const amount = parseAmount(o.amount);
    if (!amount || amount.decimals > 2 || amount.paise < rupees(1)) fail(R.invalidAmount);
    const mode = field(o, 'transferMode') || 'banktransfer';
    if (!(TRANSFER_MODES as readonly string[]).includes(mode)) fail(R.invalidMode);
    const tag = field(o, 'tag');
    if (tag === undefined || (tag !== '' && !TAG_RE.test(tag))) fail(R.invalidTag);
    const remarks = field(o, 'remarks');
    if (remarks === undefined || !REMARKS_RE.test(remarks)) fail(R.invalidRemarks);
    const pid = field(o, 'paymentInstrumentId');
    if (pid === undefined) fail(R.instrumentNotAvailable);
    const bene = decodeBene(o.beneDetails);
    const account = world.account;
    if (account.flags.featureDisabled.includes('directTransfer')) fail(R.featureNotAvailable);
    if (account.flags.unavailableModes.includes(mode)) fail(R.modeNotAvailable);
    if (account.flags.disabledModes.includes(mode)) fail(R.modeNotEnabled);
    checkInstrument(account, pid, mode, R);
    if (BANK_MODES.includes(mode)) {
      if (!bene.bankAccount || !bene.ifsc) fail(R.noBankAccount);
      if (!IFSC_RE.test(bene.ifsc)) fail(R.invalidIfsc);
      if (!BANK_ACCOUNT_RE.test(bene.bankAccount)) fail(R.invalidAccountOrIfsc);
    } else if (mode === 'upi') {
      if (!bene.vpa) fail(R.noPayeeVpa);
    } else if (!/^\d{10}$/.test(bene.phone ?? '')) {
      fail(R.invalidBeneDetails);
    }
    checkAmountRange(amount.paise, mode, R);
    const outcome = outcomeFor(mode, bene);
    const input: TransferInput = {
      endpoint: 'directTransfer',
      transferId,
      amount: amount.paise,
      mode,
      beneId: '',
      bankAccount: BANK_MODES.includes(mode) ? (bene.bankAccount ?? '') : '',
      ifsc: BANK_MODES.includes(mode) ? (bene.ifsc ?? '') : '',
      vpa: mode === 'upi' ? (bene.vpa ?? '') : '',
      phone: bene.phone ?? '',
      remarks,
      paymentInstrumentId: pid,
      outcome,
    };
    checkWait30(world, input, R);
    if (WALLET_MODES.includes(mode) && outcome === 'bankFailed') {
      refuseRepeat(account, 'directTransfer', transferId, R);
      fail(R.walletFailed);
    }
    const { row, record } = await commitTransfer(world, input, R);
    return row.status === 'ERROR' ? { row } : { row, data: transferResult(world, record) };
  },
};
