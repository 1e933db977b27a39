import { type Harness, type Res } from '../harness.js';

export type Scenario = (h: Harness) => Promise<Res>;
export type ScenarioMap = Readonly<Record<string, Scenario>>;

export interface EndpointCall {
  readonly id: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

/** The endpoint each legacy table belongs to (for the access rows every table lists). */
export const TABLE_ENDPOINTS: Readonly<Record<string, EndpointCall>> = {
  authorize: { id: 'authorize', method: 'POST', path: '/payout/v1/authorize' },
  verifyToken: { id: 'verifyToken', method: 'POST', path: '/payout/v1/verifyToken' },
  directTransfer: { id: 'directTransfer', method: 'POST', path: '/payout/v1.2/directTransfer' },
  requestTransfer: { id: 'requestTransfer', method: 'POST', path: '/payout/v1.2/requestTransfer' },
  requestBatchTransfer: {
    id: 'requestBatchTransfer',
    method: 'POST',
    path: '/payout/v1/requestBatchTransfer',
  },
  getBatchTransferStatus: {
    id: 'getBatchTransferStatus',
    method: 'GET',
    path: '/payout/v1/getBatchTransferStatus?batchTransferId=x',
  },
  internalTransfer: { id: 'internalTransfer', method: 'POST', path: '/payout/v1/internalTransfer' },
  selfWithdrawal: { id: 'selfWithdrawal', method: 'POST', path: '/payout/v1/selfWithdrawal' },
  getBeneId: { id: 'getBeneId', method: 'GET', path: '/payout/v1/getBeneId?bankAccount=x' },
  cardpay: { id: 'cardpay', method: 'POST', path: '/payout/v1/cardpay' },
  beneHistory: { id: 'beneHistory', method: 'GET', path: '/payout/v1/beneHistory?beneId=x' },
  getTransferStatus: { id: 'getTransferStatus', method: 'GET', path: '/payout/v1.2/getTransferStatus' },
  addBeneficiary: { id: 'addBeneficiary', method: 'POST', path: '/payout/v1/addBeneficiary' },
  getBeneficiary: { id: 'getBeneficiary', method: 'GET', path: '/payout/v1/getBeneficiary/x' },
  removeBeneficiary: { id: 'removeBeneficiary', method: 'POST', path: '/payout/v1/removeBeneficiary' },
  getBalance: { id: 'getBalance', method: 'GET', path: '/payout/v1/getBalance' },
};

function hit(h: Harness, ep: EndpointCall, token?: string | null): Promise<Res> {
  return h.call(ep.method, ep.path, ep.method === 'POST' ? {} : undefined, { token });
}

/** Scenarios for the access rows, the rate limit and injected 520s, for any legacy endpoint. */
export function accessScenarios(ep: EndpointCall): ScenarioMap {
  return {
    tokenInvalid: (h) => hit(h, ep, 'not.a.token'),
    tokenMissing: (h) => hit(h, ep, null),
    ipNotWhitelisted: async (h) => {
      await h.ctl('POST', '/__sandbox/allowed-ips', { ips: [] });
      return hit(h, ep);
    },
    apisNotEnabled: async (h) => {
      await h.flags({ apisDisabled: [ep.id] });
      return hit(h, ep);
    },
    tooManyRequests: async (h) => {
      await h.ctl('POST', '/__sandbox/rate-limits', { endpoint: ep.id, perMinute: 1 });
      await hit(h, ep);
      return hit(h, ep);
    },
    unknownError: async (h) => {
      await h.fault({ endpoint: ep.id, subCode520: true, times: 1 });
      return hit(h, ep);
    },
    methodNotAllowed: (h) => h.call('DELETE', ep.path.split('?')[0] ?? ep.path),
    malformedJson: (h) => h.call('POST', ep.path, undefined, { raw: '{"broken":' }),
    unknownField: (h) => h.call('POST', ep.path, { surprise: true }),
    invalidBody: (h) => h.call('POST', ep.path, [1, 2]),
    bodyTooLarge: (h) =>
      h.call('POST', ep.path, undefined, { raw: JSON.stringify({ x: 'a'.repeat(1_100_000) }) }),
  };
}

/** A 520-family row picked by key through the fault API. */
export function faultRow(ep: EndpointCall, rowKey: string): Scenario {
  return async (h) => {
    await h.fault({ endpoint: ep.id, subCode520: rowKey, times: 1 });
    return hit(h, ep);
  };
}
