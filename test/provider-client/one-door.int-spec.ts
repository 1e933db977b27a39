import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { providerVocabulary, WIRE_CODE_FIELDS } from '#provider-client/testing';
import { pipelineSources, providerWordsIn } from '../../scripts/provider-words-check.js';

/*
 * Issue 31: the walls around the provider hold. Files are planted in the source tree (a folder of
 * their own, removed after), and the checks the architecture step runs must fail on them.
 */
const root = resolve(import.meta.dirname, '../../..');
const planted = `libs/pipeline/src/planted-${randomBytes(4).toString('hex')}`;

function plant(name: string, text: string): string {
  const path = join(planted, name);
  writeFileSync(join(root, path), text);
  return path;
}

function depcruise(...files: string[]): { status: number | null; out: string } {
  const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
  const r = spawnSync(
    process.execPath,
    [cli, '--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...files],
    { cwd: root, encoding: 'utf8' },
  );
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the provider behind one door (issue 31)', () => {
  before(() => mkdirSync(join(root, planted), { recursive: true }));
  after(() => rmSync(join(root, planted), { recursive: true, force: true }));

  it('dependency-cruiser refuses an import of provider-client internals, and of its test door, from the pipeline', () => {
    const inside = plant(
      'inside.ts',
      "export { ProviderClient } from '../../../provider-client/src/provider-client.js';\n",
    );
    const testDoor = plant(
      'test-door.ts',
      "export { REGISTERED_ENDPOINTS } from '#provider-client/testing';\n",
    );
    const r = depcruise(inside, testDoor);
    assert.notEqual(r.status, 0, r.out);
    assert.match(r.out, /provider-client-has-one-door: libs\/pipeline\/src\/planted-[0-9a-f]+\/inside\.ts/);
    assert.match(
      r.out,
      /provider-client-test-door-is-for-tests: libs\/pipeline\/src\/planted-[0-9a-f]+\/test-door\.ts/,
    );
  });

  it('the index is the door: importing the port passes', () => {
    const door = plant('door.ts', "export { ProviderPort } from '#provider-client';\n");
    const r = depcruise(door);
    assert.equal(r.status, 0, r.out);
  });

  it("the provider's words, derived from the connector's tables, fail the pipeline; the pipeline has none", () => {
    const words = providerVocabulary();
    // Derived, not listed: the tables' event names, status words and codes; never the service's own.
    for (const w of [
      'TRANSFER_SUCCESS',
      'BULK_TRANSFER_REJECTED',
      'MANUALLY_REJECTED',
      'beneficiary_already_exists',
    ])
      assert.ok(words.has(w), w);
    for (const w of ['SUCCESS', 'FAILED', 'PENDING', 'approval_pending']) assert.ok(!words.has(w), w);
    plant(
      'words.ts',
      [
        "export const isBatch = (e: string) => e === 'BULK_TRANSFER_REJECTED';",
        'export const codeOf = (r: { diagnostics: { subCode?: string } }) => r.diagnostics.subCode;',
        '',
      ].join('\n'),
    );
    const found = providerWordsIn(pipelineSources(root), words, WIRE_CODE_FIELDS);
    assert.deepEqual(
      found.map((f) => [f.path.replace(/planted-[0-9a-f]+/, 'planted'), f.line, f.why, f.word]),
      [
        ['libs/pipeline/src/planted/words.ts', 1, 'provider word', 'BULK_TRANSFER_REJECTED'],
        ['libs/pipeline/src/planted/words.ts', 2, 'wire code field', 'r.diagnostics.subCode'],
      ],
    );
    const script = spawnSync(process.execPath, [join(root, 'dist/scripts/provider-words.js')], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(script.status, 1, script.stdout + script.stderr);
    assert.match(script.stderr, /words\.ts:1: provider word "BULK_TRANSFER_REJECTED"/);
  });
});
