import { type ProviderClient } from '../provider-client.js';
import { type Connectors } from './connector.port.js';
import { V1Connector } from './v1.connector.js';
import { V2Connector } from './v2.connector.js';

export * from './connector.port.js';
export * from './kind-traits.js';
export * from '../core/status-mapping.js';
export * from '../endpoints/adapter-registry.js';
export { V1Connector } from './v1.connector.js';
export { V2Connector } from './v2.connector.js';

/** Both generations over one client (one executor: shared auth, rate budgets and metrics). */
export function connectorsOf(client: ProviderClient): Connectors {
  return { v1: new V1Connector(client), v2: new V2Connector(client) };
}
