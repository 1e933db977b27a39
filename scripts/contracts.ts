/**
 * `npm run contracts`: writes docs/asyncapi.json and docs/CONTRACTS.md from libs/contracts (the
 * schemas the service validates with at run time). A unit test fails when they drift.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderAsyncApi, renderContractsDoc } from '#contracts';

const root = resolve(import.meta.dirname, '../..');
writeFileSync(resolve(root, 'docs/asyncapi.json'), renderAsyncApi());
writeFileSync(resolve(root, 'docs/CONTRACTS.md'), renderContractsDoc());
console.log('wrote docs/asyncapi.json and docs/CONTRACTS.md');
