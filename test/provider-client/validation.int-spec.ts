import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ProviderClient } from '#provider-client/testing';
import { StubProvider } from './support/stub-provider.js';
import { testClient } from './support/test-client.js';
import { LEGACY_CASES, V2_CASES } from './support/endpoint-cases.js';

describe('local validation refuses before sending', () => {
  let stub: StubProvider;
  let client: ProviderClient;
  before(async () => {
    stub = await StubProvider.start();
    client = testClient(stub);
  });
  after(async () => {
    await client.close();
    await stub.close();
  });
  beforeEach(() => stub.reset());

  for (const c of [...LEGACY_CASES, ...V2_CASES]) {
    for (const [why, call] of c.invalid) {
      it(`${c.name}: ${why}`, async () => {
        const r = await call(client);
        assert.equal(r.outcome, 'failed', JSON.stringify(r));
        assert.equal(r.outcome === 'failed' ? r.kind : '', 'invalid-request');
        assert.equal(r.diagnostics.sent, false);
        assert.ok(r.diagnostics.message && r.diagnostics.message.length > 0);
        assert.equal(stub.calls().length, 0, 'the provider saw a call');
      });
    }
  }
});
