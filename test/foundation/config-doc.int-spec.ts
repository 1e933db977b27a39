import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONFIG_DOC_PATH, renderConfiguration } from '../../scripts/config-sections.js';

describe('docs/CONFIGURATION.md', () => {
  it('lists every variable of every config section as the code declares it (run npm run config-doc)', () => {
    const committed = readFileSync(resolve(import.meta.dirname, '../../..', CONFIG_DOC_PATH), 'utf8');
    assert.equal(committed, renderConfiguration());
  });
});
