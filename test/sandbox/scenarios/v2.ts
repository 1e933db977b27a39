import { type Harness, type Res } from '../harness.js';
import { type ScenarioMap } from './common.js';

async function pay(h: Harness, extra: Record<string, unknown> = {}, vpa = 'success@upi'): Promise<Res> {
  const transferId = h.id('V');
  const token = await h.transferToken(transferId, vpa);
  return h.v2('POST', '/payout/transfers', {
    transfer_id: transferId,
    transfer_token: token,
    transfer_amount: '10.00',
    transfer_mode: 'upi',
    ...extra,
  });
}

async function payTwice(h: Harness): Promise<Res> {
  const transferId = h.id('V');
  const token = await h.transferToken(transferId);
  const body = {
    transfer_id: transferId,
    transfer_token: token,
    transfer_amount: '1.00',
    transfer_mode: 'upi',
  };
  await h.v2('POST', '/payout/transfers', body);
  return h.v2('POST', '/payout/transfers', body);
}

async function expired(h: Harness): Promise<Res> {
  const transferId = h.id('V');
  const token = await h.transferToken(transferId);
  await h.advance(60 * 60_000);
  return h.v2('POST', '/payout/transfers', {
    transfer_id: transferId,
    transfer_token: token,
    transfer_amount: '1.00',
    transfer_mode: 'upi',
  });
}

export const V2_TRANSFER_SCENARIOS: ScenarioMap = {
  tokenExpired: expired,
  invalidTransferId: (h) => pay(h, { transfer_id: 'someone_else' }),
  tokenInvalid: (h) => pay(h, { transfer_token: 'ttk_forged' }),
  modeInvalid: (h) => pay(h, { transfer_mode: 'imps' }),
  resourceNotFound: (h) => pay(h, {}, 'missing@upi'),
  tokenUsed: payTwice,
  amountInvalid: (h) => pay(h, { transfer_amount: 10 }),
  transferIdMissing: (h) => pay(h, { transfer_id: undefined }),
  tokenMissing: (h) => pay(h, { transfer_token: '' }),
  modeMissing: (h) => pay(h, { transfer_mode: undefined }),
  remarksInvalid: (h) => pay(h, { transfer_remarks: 'r'.repeat(71) }),
  fundsourceInvalid: (h) => pay(h, { fundsource_id: 7 }),
};

export const V2_TRANSFER_STATUS_SCENARIOS: ScenarioMap = {
  statusIdMissing: (h) => h.v2('GET', '/payout/transfers'),
  transferNotFound: (h) => h.v2('GET', '/payout/transfers?transfer_id=nope'),
  svcTransferNotFound: (h) => h.v2('GET', '/payout/transfers?svc_transfer_id=1'),
};

const sdkBody = {
  app_id: 'app_1',
  product: 'VKYC',
  metadata: { vkyc_request_id: 42 },
  authenticated_user: { identifier_type: 'userId', identifier_value: 7 },
};
const sdk = (h: Harness, extra: Record<string, unknown>): Promise<Res> =>
  h.v2('POST', '/verification/oauth/token', { ...sdkBody, ...extra });

export const V2_SDK_SCENARIOS: ScenarioMap = {
  appIdInvalid: (h) => sdk(h, { app_id: '' }),
  productInvalid: (h) => sdk(h, { product: 'KYC' }),
  metadataInvalid: (h) => sdk(h, { metadata: [] }),
  userInvalid: (h) => sdk(h, { authenticated_user: { identifier_type: 'userId' } }),
};

export const V2_COMMON_SCENARIOS: ScenarioMap = {
  authFailed: (h) => h.v2('POST', '/payout/transfers', {}, { 'x-client-secret': 'wrong' }),
  clientIdMissing: (h) => h.v2('POST', '/payout/transfers', {}, { 'x-client-id': '' }),
  clientSecretMissing: (h) => h.v2('POST', '/payout/transfers', {}, { 'x-client-secret': '' }),
  apiVersionInvalid: (h) => h.v2('POST', '/payout/transfers', {}, { 'x-api-version': '2024/01/01' }),
  malformedJson: (h) =>
    h.call('POST', '/payout/transfers', undefined, {
      token: null,
      raw: '{"a":',
      headers: { 'x-api-version': '2024-01-01' },
    }),
  unknownField: (h) => pay(h, { surprise: 1 }),
  bodyTooLarge: (h) =>
    h.call('POST', '/payout/transfers', undefined, {
      token: null,
      raw: JSON.stringify({ a: 'x'.repeat(1_100_000) }),
    }),
  invalidBody: (h) => h.v2('POST', '/payout/transfers', 'a string'),
  apisNotEnabled: async (h) => {
    await h.flags({ apisDisabled: ['processValidatedPayout'] });
    return pay(h);
  },
  rateLimited: async (h) => {
    await h.ctl('POST', '/__sandbox/rate-limits', { endpoint: 'getTransferStatusV2', perMinute: 1 });
    await h.v2('GET', '/payout/transfers?transfer_id=x');
    return h.v2('GET', '/payout/transfers?transfer_id=x');
  },
  internalError: async (h) => {
    await h.fault({ endpoint: 'processValidatedPayout', httpStatus: 500, times: 1 });
    return pay(h);
  },
};
