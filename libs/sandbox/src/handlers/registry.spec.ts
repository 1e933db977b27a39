import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINT_IDS, HANDLER_REGISTRY, LEGACY_TABLES, V2_TABLES } from './registry.js';

/** `getTransferStatusV2` lives in get-transfer-status-v2.handler.ts, as the client's adapters do. */
const fileName = (id: string): string => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

describe('sandbox handler registry', () => {
  for (const [key, { generation, endpoint: ep }] of Object.entries(HANDLER_REGISTRY)) {
    const name = fileName(key);
    const tables = generation === 'v1' ? LEGACY_TABLES : V2_TABLES;
    it(`${key}: answers from ${name}.handler.ts with its own table from ${name}.table.ts`, async () => {
      assert.equal(ep.id, key, `the registry's key ${key} names its handler`);
      const handler = (await import(`./${name}.handler.js`)) as Record<string, unknown>;
      assert.ok(Object.values(handler).includes(ep), `${name}.handler.ts exports ${key}`);
      const table = (await import(`../tables/${name}.table.js`)) as Record<string, unknown>;
      assert.ok(Object.values(table).includes(ep.table), `${name}.table.ts exports the table of ${key}`);
      assert.equal(tables[key], ep.table, `the tests walk ${key}'s table under its id`);
    });
  }

  it('lists every endpoint once, and every table under an endpoint besides the rows every v2 call shares', () => {
    assert.equal(new Set(ENDPOINT_IDS).size, ENDPOINT_IDS.length);
    assert.deepEqual(
      [...Object.keys(LEGACY_TABLES), ...Object.keys(V2_TABLES)].filter(
        (k) => !ENDPOINT_IDS.includes(k as never),
      ),
      ['v2Common'],
    );
  });

  it('tries the transfer-token payout before the standard transfer on their shared route', () => {
    assert.ok(ENDPOINT_IDS.indexOf('processValidatedPayout') < ENDPOINT_IDS.indexOf('transferV2'));
  });
});
