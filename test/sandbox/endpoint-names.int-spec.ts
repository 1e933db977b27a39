import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINT_IDS, startSandbox } from '#sandbox';
// The client's registry module itself, by relative path: the client's index exports only its port.
import { ENDPOINT_NAMES } from '#provider-client/testing';

/**
 * Endpoints the sandbox serves that the service does not call, each with its reason. Every other
 * name must be the client's, and every name of the client's must be served.
 */
const NOT_CALLED_BY_THE_CLIENT: Readonly<Record<string, string>> = {
  verifyToken: 'the client re-authorizes on 403 instead of asking whether a token is valid',
};

describe('endpoint names: the sandbox and the client use one vocabulary', () => {
  it("every endpoint the client calls is served by the sandbox under the client's name", () => {
    const missing = ENDPOINT_NAMES.filter((n) => !ENDPOINT_IDS.includes(n as never));
    assert.deepEqual(missing, [], 'client endpoints without a sandbox handler of the same name');
  });

  it("every sandbox endpoint is one of the client's, or listed with the reason the client does not call it", () => {
    const client = new Set<string>(ENDPOINT_NAMES);
    const extra = ENDPOINT_IDS.filter((id) => !client.has(id) && NOT_CALLED_BY_THE_CLIENT[id] === undefined);
    assert.deepEqual(extra, [], 'sandbox endpoints named differently from the client');
  });

  it("the control API takes the client's names for faults and refuses the old sandbox-only ones", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      for (const endpoint of ENDPOINT_NAMES) {
        const res = await fetch(`${sandbox.url}/__sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ endpoint, httpStatus: 503, times: 1 }),
        });
        assert.equal(res.status, 201, `fault on ${endpoint}: ${await res.text()}`);
      }
      const old = await fetch(`${sandbox.url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endpoint: 'v2StandardTransfer', httpStatus: 503 }),
      });
      assert.equal(old.status, 400, 'an old sandbox-only name is refused');
    } finally {
      await sandbox.close();
    }
  });
});
