import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LEGACY_TABLES, V2_TABLES } from '../tables/index.js';
import { LEGACY_ENDPOINTS, V2_ENDPOINTS } from './registry.js';

/** The v2 ids are the sandbox's own; their files carry the provider's names, as the client's adapters do. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  v2Transfer: 'process-validated-payout',
  v2TransferStatus: 'get-transfer-status-v2',
  sdkToken: 'create-sdk-token',
  v2StandardTransfer: 'standard-transfer-v2',
  v2BatchTransfer: 'batch-transfer-v2',
  v2BatchTransferStatus: 'get-batch-transfer-status-v2',
  v2CreateBeneficiary: 'create-beneficiary-v2',
  v2GetBeneficiary: 'get-beneficiary-v2',
  v2RemoveBeneficiary: 'remove-beneficiary-v2',
};

const fileName = (id: string): string =>
  PROVIDER_NAMES[id] ?? id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

describe('sandbox endpoints', () => {
  const endpoints = [
    ...LEGACY_ENDPOINTS.map((ep) => ({ ep, tables: LEGACY_TABLES })),
    ...V2_ENDPOINTS.map((ep) => ({ ep, tables: V2_TABLES })),
  ];

  for (const { ep, tables } of endpoints) {
    const name = fileName(ep.id);
    it(`${ep.id}: answers from ${name}.handler.ts with its own table from ${name}.table.ts`, async () => {
      const handler = (await import(`./${name}.handler.js`)) as Record<string, unknown>;
      assert.ok(Object.values(handler).includes(ep), `${name}.handler.ts exports ${ep.id}`);
      const table = (await import(`../tables/${name}.table.js`)) as Record<string, unknown>;
      assert.ok(Object.values(table).includes(ep.table), `${name}.table.ts exports the table of ${ep.id}`);
      assert.equal(tables[ep.id], ep.table, `the tests walk ${ep.id}'s table under its id`);
    });
  }

  it('has no table that no endpoint answers from, besides the rows every v2 call shares', () => {
    const used = new Set<unknown>(endpoints.map(({ ep }) => ep.table));
    const unused = [...Object.entries(LEGACY_TABLES), ...Object.entries(V2_TABLES)]
      .filter(([, t]) => !used.has(t))
      .map(([k]) => k);
    assert.deepEqual(unused, ['v2Common']);
  });
});
