import { type EndpointName } from '../core/outcome.js';
import { type CallOptions, type ProviderClient } from '../provider-client.js';
import { type PayoutCheck } from './connector.port.js';
import { legacyCheck, v2Check } from './shared-calls.js';

/** Asks the kind's status endpoint about our transferId. */
export function checkBy(
  endpoint: EndpointName | null,
  client: ProviderClient,
  transferId: string,
  opts: CallOptions,
): Promise<PayoutCheck> {
  switch (endpoint) {
    case 'getTransferStatus':
      return legacyCheck(client, transferId, opts);
    case 'getTransferStatusV2':
      return v2Check(client, transferId, opts);
    default:
      // The pipeline asks only where traits name a status endpoint; anything else is a wiring error.
      return Promise.reject(new Error(`no status check through ${String(endpoint)}`));
  }
}
