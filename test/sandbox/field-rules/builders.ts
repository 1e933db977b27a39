import { CARD_TOKENS, type LegacyRow, type V2Row } from '#sandbox';
import { SUCCESS_ACCOUNT, type Harness, type Res } from '../harness.js';

export type Send = (h: Harness, value: unknown) => Promise<Res>;

/** One field rule of the interface document: a value at the edge that passes, one that fails. */
export interface FieldRule {
  readonly rule: string;
  readonly send: Send;
  readonly ok: unknown;
  readonly bad: unknown;
  readonly row: LegacyRow | V2Row;
}

export const direct: (field: string) => Send = (field) => (h, v) =>
  h.post('/payout/v1.2/directTransfer', {
    transferId: h.id(),
    amount: '10.00',
    beneDetails: { name: 'Payee', ...SUCCESS_ACCOUNT },
    [field]: v,
  });

export const request: (field: string) => Send = (field) => async (h, v) => {
  const beneId = await h.addBene(SUCCESS_ACCOUNT);
  // `undefined` keeps the registered beneficiary's valid value.
  const value = v === undefined ? {} : { [field]: v };
  return h.post('/payout/v1.2/requestTransfer', { beneId, amount: '10.00', transferId: h.id(), ...value });
};

export const card: (field: string, extra?: Record<string, unknown>) => Send =
  (field, extra = {}) =>
  (h, v) =>
    h.post('/payout/v1/cardpay', {
      token: CARD_TOKENS.success[0],
      amount: '5.00',
      transferId: h.id(),
      ...extra,
      [field]: v,
    });

export const batch: (field: string) => Send = (field) => (h, v) =>
  h.post('/payout/v1/requestBatchTransfer', {
    batchTransferId: h.id('B'),
    batchFormat: 'BANK_ACCOUNT',
    batch: [{ transferId: h.id(), amount: '1.00', ...SUCCESS_ACCOUNT, name: 'N', phone: '9876543210' }],
    [field]: v,
  });

export const entries = (n: number, h: Harness) =>
  Array.from({ length: n }, () => ({
    transferId: h.id(),
    amount: '1.00',
    ...SUCCESS_ACCOUNT,
    name: 'N',
    phone: '9876543210',
  }));

export const history: (q: (v: unknown) => Record<string, string>) => Send = (q) => async (h, v) => {
  const beneId = await h.addBene(SUCCESS_ACCOUNT, false);
  return h.get('/payout/v1/beneHistory', { beneId, ...q(v) });
};

export const v2: (field: string) => Send = (field) => async (h, v) => {
  const transferId = h.id('V');
  const token = await h.transferToken(transferId);
  return h.v2('POST', '/payout/transfers', {
    transfer_id: transferId,
    transfer_token: token,
    transfer_amount: '1.00',
    transfer_mode: 'upi',
    [field]: v,
  });
};

export const X = (n: number): string => 'x'.repeat(n);
