import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { OUTCOME_CLASSES, type ProviderClient } from '#provider-client/testing';
import { AUTHORIZE_PATH, StubProvider, type StubReply } from './support/stub-provider.js';
import { testClient } from './support/test-client.js';
import { LEGACY_CASES, V2_CASES } from './support/endpoint-cases.js';

const bodies = fc.oneof(
  fc.json(),
  fc.string(),
  fc
    .record(
      {
        status: fc.oneof(fc.constantFrom('SUCCESS', 'pending', 'ERROR', 'RECEIVED'), fc.string()),
        subCode: fc.oneof(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 }).map(String)),
        message: fc.oneof(
          fc.constantFrom('Token is not valid', 'IP not whitelisted', 'Transfer Id already exists'),
          fc.string(),
        ),
        data: fc.anything(),
        code: fc.string(),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
);

describe('property over real HTTP: any status and body classifies, nothing throws', () => {
  let stub: StubProvider;
  let client: ProviderClient;
  let reply: StubReply = {};
  before(async () => {
    stub = await StubProvider.start();
    client = testClient(stub, { maxAttempts: 1 });
    for (const c of [...LEGACY_CASES, ...V2_CASES]) {
      if (c.path !== AUTHORIZE_PATH) stub.on(c.path, () => reply);
    }
  });
  after(async () => {
    await client.close();
    await stub.close();
  });

  it('for every endpoint', async () => {
    const cases = [...LEGACY_CASES, ...V2_CASES];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        fc.integer({ min: 200, max: 599 }),
        bodies,
        async (c, status, body) => {
          reply = { status, body };
          const r = await c.call(client);
          assert.ok(OUTCOME_CLASSES.includes(r.outcome));
          assert.equal(r.diagnostics.endpoint, c.name);
        },
      ),
      { numRuns: 300 },
    );
  });
});
