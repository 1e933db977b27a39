import { type ResendRefusal } from '../core/faults.js';
import { type EndpointId } from '../core/settings.js';
import { type LegacyRow, type LegacyTable, type V2Row } from './row.js';
import { V2_TRANSFER } from './process-validated-payout.table.js';

/**
 * What a re-send refused by the `refuseResend` fault answers. Not an endpoint's table (a fault,
 * like the generic 5xx): the provider has been seen to answer a repeat with something other than
 * "Transfer Id already exists", and the client must not read any of these as "never paid".
 * Where the endpoint has its own row for the meaning, that row answers (its code and wording);
 * otherwise a row in the legacy envelope with the nearest documented code.
 */
const ID_FIELD: Partial<Record<EndpointId, string>> = {
  requestBatchTransfer: 'batchTransferId',
  selfWithdrawal: 'withdrawalId',
};

export function legacyRefusalRow(
  endpoint: EndpointId,
  table: LegacyTable,
  refusal: ResendRefusal,
): LegacyRow {
  switch (refusal) {
    case 'insufficient_balance':
      return (
        table['insufficientBalance'] ?? { subCode: '400', status: 'ERROR', message: 'Insufficient balance' }
      );
    case 'duplicate':
      return { subCode: '400', status: 'ERROR', message: `Duplicate ${ID_FIELD[endpoint] ?? 'transferId'}` };
    case 'not_found':
      return (
        table['beneNotFound'] ??
        table['rechargeNotFound'] ?? { subCode: '404', status: 'ERROR', message: 'Resource not found' }
      );
  }
}

export const V2_REFUSALS: Readonly<Record<ResendRefusal, V2Row>> = {
  insufficient_balance: {
    http: 400,
    type: 'invalid_request_error',
    code: 'insufficient_balance',
    message: 'Insufficient balance in the account',
    documented: false,
  },
  duplicate: {
    http: 400,
    type: 'invalid_request_error',
    code: 'transfer_id_duplicate',
    message: 'Duplicate transfer_id',
    documented: false,
  },
  not_found: V2_TRANSFER.resourceNotFound,
};
