import { SUCCESS_ACCOUNT, type Harness, type Res } from '../harness.js';
import { accessScenarios, faultRow, TABLE_ENDPOINTS, type ScenarioMap } from './common.js';

const BATCH = TABLE_ENDPOINTS.requestBatchTransfer!;
const BATCH_STATUS = TABLE_ENDPOINTS.getBatchTransferStatus!;

function entries(h: Harness, n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, () => ({
    transferId: h.id(),
    amount: '1.00',
    ...SUCCESS_ACCOUNT,
    name: 'Batch Payee',
    phone: '9876543210',
  }));
}

function batch(h: Harness, extra: Record<string, unknown> = {}): Promise<Res> {
  return h.post('/payout/v1/requestBatchTransfer', {
    batchTransferId: h.id('BATCH'),
    batchFormat: 'BANK_ACCOUNT',
    batch: entries(h, 2),
    ...extra,
  });
}

export const BATCH_SCENARIOS: ScenarioMap = {
  ...accessScenarios(BATCH),
  success: (h) => batch(h),
  received: (h) => batch(h, { batch: entries(h, 101) }),
  permissionDenied: async (h) => {
    await h.flags({ featureDisabled: ['requestBatchTransfer'] });
    return batch(h);
  },
  invalidFormat: (h) => batch(h, { batchFormat: 'CHEQUE' }),
  batchIdExists: async (h) => {
    const batchTransferId = h.id('BATCH');
    await batch(h, { batchTransferId });
    return batch(h, { batchTransferId });
  },
  batchIdInvalid: (h) => batch(h, { batchTransferId: 'bad id' }),
  tooManyEntries: (h) => batch(h, { batch: entries(h, 501) }),
  formatMissing: (h) => batch(h, { batchFormat: undefined }),
  paramsMissing: (h) => batch(h, { batch: [{ transferId: h.id(), amount: '1.00' }] }),
  noEntries: (h) => batch(h, { batch: [] }),
  formatPermissionDenied: async (h) => {
    await h.flags({ disabledModes: ['upi'] });
    return batch(h, { batchFormat: 'UPI' });
  },
  batchFailed: faultRow(BATCH, 'batchFailed'),
  batchError: faultRow(BATCH, 'batchError'),
};

async function batchStatus(h: Harness, advanceMs: number): Promise<Res> {
  const batchTransferId = h.id('BATCH');
  await batch(h, { batchTransferId });
  if (advanceMs > 0) await h.advance(advanceMs);
  return h.get('/payout/v1/getBatchTransferStatus', { batchTransferId });
}

export const BATCH_STATUS_SCENARIOS: ScenarioMap = {
  ...accessScenarios(BATCH_STATUS),
  success: (h) => batchStatus(h, 5_000),
  pending: (h) => batchStatus(h, 0),
  notFound: (h) => h.get('/payout/v1/getBatchTransferStatus', { batchTransferId: 'NOPE' }),
  fetchError: faultRow(BATCH_STATUS, 'fetchError'),
  unknownError: faultRow(BATCH_STATUS, 'unknownError'),
  missingId: (h) => h.get('/payout/v1/getBatchTransferStatus'),
};

const internal = (h: Harness, body: Record<string, unknown>): Promise<Res> =>
  h.post('/payout/v1/internalTransfer', { amount: 1, rechargeAccount: 'RA0001', ...body });

export const INTERNAL_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.internalTransfer!),
  success: (h) => internal(h, { transferId: 'int-1_a' }),
  rechargeNotFound: (h) => internal(h, { rechargeAccount: 'RA9999' }),
  notConfigured: (h) => internal(h, { rechargeAccount: 'RA0002' }),
  invalidAmount: (h) => internal(h, { amount: 0.5 }),
  invalidRechargeAccount: (h) => internal(h, { rechargeAccount: 'RA-1' }),
  invalidTransferId: (h) => internal(h, { transferId: 'x'.repeat(41) }),
  insufficientBalance: async (h) => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '0.50' });
    return internal(h, {});
  },
};

const withdraw = (h: Harness, body: Record<string, unknown> = {}): Promise<Res> =>
  h.post('/payout/v1/selfWithdrawal', {
    withdrawalId: h.id('W'),
    amount: 10,
    remarks: 'to own account',
    ...body,
  });

export const SELF_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.selfWithdrawal!),
  success: (h) => withdraw(h),
  withdrawalIdMissing: (h) => withdraw(h, { withdrawalId: undefined }),
  dailyLimit: async (h) => {
    for (let i = 0; i < 3; i += 1) await withdraw(h);
    return withdraw(h);
  },
  invalidAmount: (h) => withdraw(h, { amount: 'ten' }),
  invalidRemarks: (h) => withdraw(h, { remarks: 'r'.repeat(71) }),
  insufficientBalance: async (h) => {
    await h.ctl('POST', '/__sandbox/balance', { balance: '1.00' });
    return withdraw(h);
  },
};

const beneId = (h: Harness, query: Record<string, string>): Promise<Res> =>
  h.get('/payout/v1/getBeneId', query);

export const GET_BENE_ID_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.getBeneId!),
  success: async (h) => {
    await h.addBene(SUCCESS_ACCOUNT, false);
    return beneId(h, SUCCESS_ACCOUNT);
  },
  fetchError: faultRow(TABLE_ENDPOINTS.getBeneId!, 'fetchError'),
  notFound: (h) => beneId(h, { bankAccount: '1234567890', ifsc: 'SBIN0000001' }),
  invalidAccountAndIfsc: (h) => beneId(h, { bankAccount: '12', ifsc: 'BAD' }),
  onlyOneGiven: (h) => beneId(h, { bankAccount: '1234567890' }),
  invalidIfsc: (h) => beneId(h, { bankAccount: '1234567890', ifsc: 'SBIN1000001' }),
};

async function history(h: Harness, query: Record<string, string>): Promise<Res> {
  const id = await h.addBene(SUCCESS_ACCOUNT, false);
  return h.get('/payout/v1/beneHistory', { beneId: id, ...query });
}

export const HISTORY_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.beneHistory!),
  success: (h) => history(h, { startDate: '2020-01-01', endDate: '2020-12-31', page: '1', perPage: '25' }),
  invalidDateRange: (h) => history(h, { startDate: '2020-01-01' }),
  pageBelowOne: (h) => history(h, { page: '0' }),
  invalidBeneId: (h) => h.get('/payout/v1/beneHistory', { beneId: 'no_such-bene' }),
  dateFormat: (h) => history(h, { startDate: '01-01-2020', endDate: '2020-12-31' }),
  startAfterEnd: (h) => history(h, { startDate: '2020-02-01', endDate: '2020-01-01' }),
  perPageAbove: (h) => history(h, { perPage: '26' }),
  unknownError: faultRow(TABLE_ENDPOINTS.beneHistory!, 'unknownError'),
};

export const GET_BALANCE_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.getBalance!),
  success: (h) => h.get('/payout/v1.2/getBalance', { paymentInstrumentId: 'PI_MAIN' }),
  instrumentInvalid: (h) => h.get('/payout/v1.2/getBalance', { paymentInstrumentId: 'PI_NONE' }),
  unknownError: faultRow(TABLE_ENDPOINTS.getBalance!, 'unknownError'),
};

export const STATUS_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.getTransferStatus!),
  success: async (h) => {
    const transferId = h.id();
    await h.direct(SUCCESS_ACCOUNT, { transferId });
    return h.get('/payout/v1/getTransferStatus', { transferId });
  },
  transferIdNotFound: (h) => h.get('/payout/v1.2/getTransferStatus', { transferId: 'nope' }),
  referenceIdNotFound: (h) => h.get('/payout/v1.2/getTransferStatus', { referenceId: '1' }),
  idMissing: (h) => h.get('/payout/v1.2/getTransferStatus'),
};

const creds = { 'x-client-id': 'sandbox_client_id', 'x-client-secret': 'sandbox_client_secret' };

export const AUTHORIZE_SCENARIOS: ScenarioMap = {
  success: (h) => h.authorize(),
  badCredentials: (h) => h.authorize({ 'x-client-secret': 'wrong' }),
  ipNotWhitelisted: async (h) => {
    await h.ctl('POST', '/__sandbox/allowed-ips', { ips: [] });
    return h.authorize();
  },
  apisNotEnabled: async (h) => {
    await h.flags({ apisDisabled: ['authorize'] });
    return h.authorize();
  },
  tooManyRequests: async (h) => {
    await h.fault({ endpoint: 'authorize', burst429: 1 });
    return h.post('/payout/v1/authorize', undefined, { token: null, headers: creds });
  },
};

export const VERIFY_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.verifyToken!),
  success: (h) => h.post('/payout/v1/verifyToken'),
};

const addBene = (h: Harness, body: Record<string, unknown>): Promise<Res> =>
  h.post('/payout/v1/addBeneficiary', {
    name: 'N',
    email: 'n@example.com',
    phone: '9876543210',
    address1: 'A',
    vpa: 'success@upi',
    ...body,
  });

export const ADD_BENEFICIARY_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.addBeneficiary!),
  added: (h) => addBene(h, { beneId: h.id('B') }),
  exists: async (h) => {
    const id = h.id('B');
    await addBene(h, { beneId: id });
    return addBene(h, { beneId: id });
  },
  invalid: (h) => addBene(h, { beneId: h.id('B'), email: 'not-an-email' }),
};

export const GET_BENEFICIARY_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.getBeneficiary!),
  found: async (h) => {
    const id = await h.addBene(SUCCESS_ACCOUNT, false);
    return h.get(`/payout/v1/getBeneficiary/${id}`);
  },
  notFound: (h) => h.get('/payout/v1/getBeneficiary/nobody'),
};

export const REMOVE_BENEFICIARY_SCENARIOS: ScenarioMap = {
  ...accessScenarios(TABLE_ENDPOINTS.removeBeneficiary!),
  removed: async (h) => {
    const id = await h.addBene(SUCCESS_ACCOUNT, false);
    return h.post('/payout/v1/removeBeneficiary', { beneId: id });
  },
  notFound: (h) => h.post('/payout/v1/removeBeneficiary', { beneId: 'nobody' }),
  invalid: (h) => h.post('/payout/v1/removeBeneficiary', {}),
};
