import { CARD_TOKENS } from '#sandbox';
import { SUCCESS_ACCOUNT, type Harness, type Res } from '../harness.js';
import { accessScenarios, TABLE_ENDPOINTS, type ScenarioMap } from './common.js';

const acct = (bankAccount: string, ifsc: string) => ({ bankAccount, ifsc });

async function twice(h: Harness, send: (id: string) => Promise<Res>): Promise<Res> {
  const id = h.id();
  await send(id);
  return send(id);
}

async function limited(h: Harness, flag: string, send: () => Promise<Res>): Promise<Res> {
  await h.flags({ [flag]: '100.00' });
  await send();
  return send();
}

export const DIRECT_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.directTransfer!),
  success: (h) => h.direct(SUCCESS_ACCOUNT),
  scheduled: (h) => h.direct(acct('026291800001192', 'YESB0000262')),
  pendingAtBank: (h) => h.direct(acct('007711000031', 'HDFC0000077')),
  awaitingBene: (h) => h.direct(acct('00224412311300', 'YESB0000001')),
  received: (h) => h.direct(acct('00224412311301', 'YESB0000001')),
  multipleInstruments: async (h) => {
    await h.flags({ multipleInstruments: true });
    return h.direct(SUCCESS_ACCOUNT);
  },
  instrumentInvalidForMode: (h) => h.direct(SUCCESS_ACCOUNT, { paymentInstrumentId: 'PI_UPI' }),
  instrumentNotAvailable: (h) => h.direct(SUCCESS_ACCOUNT, { paymentInstrumentId: 'PI_NOPE' }),
  bankFailed: (h) => h.direct({ vpa: 'failure@upi' }, { transferMode: 'upi' }),
  beneNotAllowed: (h) => h.direct(acct('000000000403', 'YESB0000262')),
  featureNotAvailable: async (h) => {
    await h.flags({ featureDisabled: ['directTransfer'] });
    return h.direct(SUCCESS_ACCOUNT);
  },
  modeNotAvailable: async (h) => {
    await h.flags({ unavailableModes: ['imps'] });
    return h.direct(SUCCESS_ACCOUNT, { transferMode: 'imps' });
  },
  beneNotFound: (h) => h.direct(acct('000000000404', 'YESB0000262')),
  transferIdExists: (h) => twice(h, (transferId) => h.direct(SUCCESS_ACCOUNT, { transferId })),
  transferIdUsedElsewhere: async (h) => {
    const transferId = h.id();
    await card(h, { transferId });
    return h.direct(SUCCESS_ACCOUNT, { transferId });
  },
  missingParams: (h) => h.post('/payout/v1.2/directTransfer', { transferId: h.id(), beneDetails: {} }),
  wait30: async (h) => {
    await h.addBene({ bankAccount: '026291800001191', ifsc: 'YESB0000262' }, false);
    return h.direct(SUCCESS_ACCOUNT);
  },
  amountRange: (h) => h.direct(SUCCESS_ACCOUNT, { amount: '100000.01' }),
  beneLimit: (h) => limited(h, 'beneficiaryDailyLimit', () => h.direct(SUCCESS_ACCOUNT, { amount: '60.00' })),
  accountLimit: (h) => limited(h, 'accountDailyLimit', () => h.direct(SUCCESS_ACCOUNT, { amount: '60.00' })),
  insufficientBalance: async (h) => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '5.00' });
    return h.direct(SUCCESS_ACCOUNT);
  },
  invalidTag: (h) => h.direct(SUCCESS_ACCOUNT, { tag: 'not a tag!' }),
  modeNotEnabled: async (h) => {
    await h.flags({ disabledModes: ['neft'] });
    return h.direct(SUCCESS_ACCOUNT, { transferMode: 'neft' });
  },
  invalidMode: (h) => h.direct(SUCCESS_ACCOUNT, { transferMode: 'swift' }),
  invalidAmount: (h) => h.direct(SUCCESS_ACCOUNT, { amount: '0.99' }),
  invalidTransferId: (h) => h.direct(SUCCESS_ACCOUNT, { transferId: 'has-hyphen' }),
  noPayeeVpa: (h) => h.direct({}, { transferMode: 'upi' }),
  invalidRemarks: (h) => h.direct(SUCCESS_ACCOUNT, { remarks: 'no $ signs' }),
  invalidBeneDetails: (h) => h.direct({ ...SUCCESS_ACCOUNT, name: '' }),
  noBankAccount: (h) => h.direct({ bankAccount: '026291800001191' }),
  walletFailed: (h) => h.direct({ phone: '9999999999' }, { transferMode: 'wallet_a', amount: '150.00' }),
  invalidIfsc: (h) => h.direct(acct('2640101002729', 'CNRR0002640')),
  invalidAccountOrIfsc: (h) => h.direct(acct('026291800001190', 'YESB0000262')),
  noResponse: async (h) => {
    await h.fault({ endpoint: 'directTransfer', subCode520: true, times: 1 });
    return h.direct(SUCCESS_ACCOUNT);
  },
};

async function request(
  h: Harness,
  bene: Record<string, string>,
  extra: Record<string, unknown> = {},
): Promise<Res> {
  const beneId = await h.addBene(bene);
  return h.post('/payout/v1.2/requestTransfer', { beneId, amount: 10, transferId: h.id(), ...extra });
}

export const REQUEST_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.requestTransfer!),
  success: (h) => request(h, SUCCESS_ACCOUNT),
  scheduled: (h) => request(h, acct('026291800001192', 'YESB0000262')),
  pendingAtBank: (h) => request(h, acct('007711000031', 'HDFC0000077')),
  awaitingBene: (h) => request(h, acct('7766666351000', 'YESB0000001')),
  received: (h) => request(h, acct('00224412311301', 'YESB0000001')),
  noResponse: async (h) => {
    await h.fault({ endpoint: 'requestTransfer', subCode520: true, times: 1 });
    return request(h, SUCCESS_ACCOUNT);
  },
  modeInvalidForBene: (h) => request(h, SUCCESS_ACCOUNT, { transferMode: 'upi' }),
  transferIdExists: async (h) => {
    const beneId = await h.addBene(SUCCESS_ACCOUNT);
    return twice(h, (transferId) =>
      h.post('/payout/v1.2/requestTransfer', { beneId, amount: '1.00', transferId }),
    );
  },
  insufficientBalance: async (h) => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '9.99' });
    return request(h, SUCCESS_ACCOUNT);
  },
  wait30: async (h) => {
    const beneId = await h.addBene(SUCCESS_ACCOUNT, false);
    return h.post('/payout/v1.2/requestTransfer', { beneId, amount: 10, transferId: h.id() });
  },
  amountRange: (h) => request(h, { vpa: 'success@upi' }, { transferMode: 'wallet_a', amount: 99 }),
  walletFailed: (h) =>
    request(h, { vpa: 'x@upi', phone: '9999999999' }, { transferMode: 'wallet_b', amount: 100 }),
  bankFailed: (h) => request(h, acct('123456789', 'SBIN0000001')),
  beneNotAllowed: (h) => request(h, acct('000000000403', 'YESB0000262')),
  amountBelowOne: (h) => request(h, SUCCESS_ACCOUNT, { amount: 0.5 }),
  accountLimit: async (h) => {
    const beneId = await h.addBene(SUCCESS_ACCOUNT);
    return limited(h, 'accountDailyLimit', () =>
      h.post('/payout/v1.2/requestTransfer', { beneId, amount: 60, transferId: h.id() }),
    );
  },
  beneLimit: async (h) => {
    const beneId = await h.addBene(SUCCESS_ACCOUNT);
    return limited(h, 'beneficiaryDailyLimit', () =>
      h.post('/payout/v1.2/requestTransfer', { beneId, amount: 60, transferId: h.id() }),
    );
  },
  modeNotEnabled: async (h) => {
    await h.flags({ disabledModes: ['rtgs'] });
    return request(h, SUCCESS_ACCOUNT, { transferMode: 'rtgs' });
  },
  instrumentNotAvailable: (h) => request(h, SUCCESS_ACCOUNT, { paymentInstrumentId: 'PI_NOPE' }),
  instrumentInvalidForMode: (h) => request(h, SUCCESS_ACCOUNT, { paymentInstrumentId: 'PI_UPI' }),
  multipleInstruments: async (h) => {
    await h.flags({ multipleInstruments: true });
    return request(h, SUCCESS_ACCOUNT);
  },
  beneNotFound: (h) =>
    h.post('/payout/v1.2/requestTransfer', { beneId: 'nobody', amount: 10, transferId: h.id() }),
  transferIdMissing: (h) => h.post('/payout/v1.2/requestTransfer', { beneId: 'b1', amount: 10 }),
  invalidBeneId: (h) =>
    h.post('/payout/v1.2/requestTransfer', { beneId: 'b-1', amount: 10, transferId: h.id() }),
  invalidAccountOrIfsc: (h) => request(h, acct('026291800001190', 'YESB0000262')),
  invalidIfsc: (h) => request(h, acct('2640101002729', 'CNRR0002640')),
  amountDecimals: (h) => request(h, SUCCESS_ACCOUNT, { amount: '1.005' }),
  invalidTransferId: (h) => request(h, SUCCESS_ACCOUNT, { transferId: 'x'.repeat(41) }),
  invalidRemarks: (h) => request(h, SUCCESS_ACCOUNT, { remarks: 'r'.repeat(71) }),
  invalidAmount: (h) => request(h, SUCCESS_ACCOUNT, { amount: true }),
  invalidMode: (h) => request(h, SUCCESS_ACCOUNT, { transferMode: 'cheque' }),
};

function card(h: Harness, extra: Record<string, unknown> = {}): Promise<Res> {
  return h.post('/payout/v1/cardpay', {
    token: CARD_TOKENS.success[0],
    amount: '10.00',
    transferId: h.id(),
    cardType: 'DEBIT',
    networkType: 'VISA',
    ...extra,
  });
}

export const CARDPAY_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.cardpay!),
  success: (h) =>
    card(h, { token: CARD_TOKENS.success[1], networkType: 'MASTERCARD', tokenExpiry: '2030-12' }),
  pendingAtBank: (h) => card(h, { token: CARD_TOKENS.failure[0] }),
  transferIdExists: (h) => twice(h, (transferId) => card(h, { transferId })),
  insufficientBalance: async (h) => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '1.00' });
    return card(h);
  },
  invalidTokenDetails: (h) => card(h, { token: '1234123412341234' }),
  amountBelowOne: (h) => card(h, { amount: '0.99' }),
  invalidAccountOrIfsc: (h) => card(h, { token: CARD_TOKENS.invalidAccount }),
  invalidName: (h) => card(h, { name: '42' }),
  invalidNetworkType: (h) => card(h, { networkType: 'AMEX' }),
  invalidCardType: (h) => card(h, { cardType: 'PREPAID' }),
  invalidTransferId: (h) => card(h, { transferId: 'bad id' }),
  invalidRemarks: (h) => card(h, { remarks: 'semi;colon' }),
  missingParams: (h) => h.post('/payout/v1/cardpay', { amount: '10.00' }),
};
