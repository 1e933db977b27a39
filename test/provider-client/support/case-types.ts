import {
  type EndpointName,
  type LegacyOutcomeTable,
  type ProviderClient,
  type ProviderResult,
  type V2OutcomeTable,
} from '#provider-client/testing';

export type Call = (c: ProviderClient) => Promise<ProviderResult<unknown>>;

interface BaseCase {
  readonly name: EndpointName;
  readonly path: string;
  readonly call: Call;
  /** Requests that break one documented field rule each; none may reach the provider. */
  readonly invalid: readonly (readonly [why: string, call: Call])[];
}

export interface LegacyCase extends BaseCase {
  readonly kind: 'legacy';
  readonly bearer: boolean;
  readonly table: LegacyOutcomeTable;
  /** `data` answered with SUCCESS / PENDING rows. */
  readonly data?: unknown;
  /** Self withdrawal reports success in `statusCode`, not `subCode`. */
  readonly successCodeField?: 'statusCode';
}

export interface V2Case extends BaseCase {
  readonly kind: 'v2';
  readonly table: V2OutcomeTable;
  readonly okBody: unknown;
}

export const legacyTransferData = { referenceId: '1234', utr: 'UTR42', acknowledged: 1 };
export const v2Transfer = (status: string, code = status) => ({
  transfer_id: 'tr_v2_1',
  cf_transfer_id: '98765',
  status,
  status_code: code,
  status_description: 'state',
  beneficiary_details: { beneficiary_id: 'b1', beneficiary_instrument_details: { vpa: 'su***@upi' } },
  currency: 'INR',
  transfer_amount: 100.5,
  transfer_mode: 'upi',
  added_on: '2024-01-01T10:00:00',
  updated_on: '2024-01-01T10:00:01',
});
export const legacyStatusData = (status: string) => ({
  transfer: {
    transferId: 'tr_1',
    referenceId: 55,
    amount: '100.00',
    status,
    reason: 'ANY_OTHER_REASON',
    utr: '',
  },
});
