import { HANDLER_REGISTRY } from '#sandbox';
import { type Harness, type Res } from '../harness.js';

export type Scenario = (h: Harness) => Promise<Res>;
export type ScenarioMap = Readonly<Record<string, Scenario>>;

export interface EndpointCall {
  readonly id: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

/**
 * The endpoint each legacy table belongs to (for the access rows every table lists), from the
 * sandbox's handler registry: its first path, a path parameter filled in. The access checks,
 * the rate limit and injected 520s answer before the handler reads its input.
 */
export const TABLE_ENDPOINTS: Readonly<Record<string, EndpointCall>> = Object.fromEntries(
  Object.entries(HANDLER_REGISTRY).flatMap(([id, r]) => {
    const ep = r.endpoint;
    if (r.generation !== 'v1' || ep.method === 'DELETE') return [];
    const path = (ep.paths[0] ?? '').replace(/:\w+/g, 'x');
    return [[id, { id, method: ep.method, path }]];
  }),
);

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
