import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { check, firstRefusal, matches, type FieldRule } from '../core/field-rules.js';
import { classifyV2 } from '../core/v2-classify.js';
import { getTransferStatusV2Outcomes } from './get-transfer-status-v2.outcomes.js';
import { decodeV2Transfer, type V2Transfer } from './v2-transfer.js';

/** Exactly one of the two: our transferId, or the provider's id (sent as `cf_transfer_id`). */
export interface GetTransferStatusV2Request {
  readonly transferId?: string;
  readonly svcTransferId?: string;
}

const rules: readonly FieldRule<GetTransferStatusV2Request>[] = [
  check(
    (r) => Boolean(r.transferId) !== Boolean(r.svcTransferId),
    'invalid_request',
    'Either transfer_id or cf_transfer_id is required',
  ),
  matches((r) => r.transferId, /^[A-Za-z0-9_-]+$/, 40, 'transfer_id_not_found', 'transfer_id is invalid'),
  matches(
    (r) => r.svcTransferId,
    /^[A-Za-z0-9_-]+$/,
    64,
    'cf_transfer_id_not_found',
    'cf_transfer_id is invalid',
  ),
];

export const getTransferStatusV2Adapter: EndpointAdapter<GetTransferStatusV2Request, V2Transfer> = {
  name: 'getTransferStatusV2',
  method: 'GET',
  path: '/payout/transfers',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'status',
  validate: (r) => firstRefusal(r, rules),
  build: (r): { query: Record<string, string> } =>
    r.transferId
      ? { query: { transfer_id: r.transferId } }
      : { query: { cf_transfer_id: r.svcTransferId ?? '' } },
  classify: (answer) => classifyV2(getTransferStatusV2Outcomes, answer, decodeV2Transfer),
};
