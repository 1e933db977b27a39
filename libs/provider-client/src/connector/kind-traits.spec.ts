import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROVIDER_APIS } from '#contracts';
import { ADAPTER_REGISTRY, ENDPOINT_NAMES, isEndpointName } from '../endpoints/adapter-registry.js';
import { KIND_TRAITS } from './kind-traits.js';

describe('adapter registry', () => {
  it('names each row after its adapter, once', () => {
    for (const [key, e] of Object.entries(ADAPTER_REGISTRY)) {
      assert.equal(e.adapter.name, key);
      assert.equal(e.name, key);
    }
    assert.equal(new Set(ENDPOINT_NAMES).size, ENDPOINT_NAMES.length);
  });

  it('a shared rate budget is named after a registered endpoint', () => {
    for (const e of Object.values(ADAPTER_REGISTRY)) {
      const key = (e.adapter as { rateKey?: string }).rateKey;
      if (key !== undefined) assert.ok(isEndpointName(key), `${e.name}: ${key}`);
    }
  });

  it('every endpoint a kind uses is registered, on the generation it is used from or v2 for v2-only calls', () => {
    for (const api of PROVIDER_APIS) {
      for (const [kind, t] of Object.entries(KIND_TRAITS[api])) {
        for (const ep of [t.initiation, t.status]) {
          if (ep === null) continue;
          const e = ADAPTER_REGISTRY[ep] as
            (typeof ADAPTER_REGISTRY)[keyof typeof ADAPTER_REGISTRY] | undefined;
          assert.ok(e, `${api}.${kind}: ${ep}`);
          // A v1 account uses v2 only where v1 has no such endpoint (the transfer-token payout).
          if (api === 'v2' && (kind === 'standard_transfer' || kind === 'direct_transfer')) {
            assert.equal(e.generation, 'v2', `${kind} on v2 goes to ${ep}`);
          }
        }
      }
    }
  });

  it('standard and direct transfers route by generation; the other kinds do not', () => {
    for (const kind of Object.keys(KIND_TRAITS.v1) as (keyof typeof KIND_TRAITS.v1)[]) {
      const same = JSON.stringify(KIND_TRAITS.v1[kind]) === JSON.stringify(KIND_TRAITS.v2[kind]);
      assert.equal(same, kind !== 'standard_transfer' && kind !== 'direct_transfer', kind);
    }
  });
});
