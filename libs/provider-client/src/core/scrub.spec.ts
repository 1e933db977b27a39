import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { scrub } from './scrub.js';

describe('scrub', () => {
  it('cuts known secrets and JWT-like strings, then caps the length', () => {
    const out = scrub('a SECRET1 b eyJhbGciOi.eyJzdWIiOi.sig c', ['SECRET1', undefined, '']);
    assert.equal(out, 'a [REDACTED] b [REDACTED] c');
    const long = scrub(`${'x'.repeat(298)}SECRET1`, ['SECRET1']) ?? '';
    assert.ok(!long.includes('SECR'));
    assert.ok(long.length <= 301);
  });

  it('masks account numbers, e-mail addresses and VPAs the provider echoes (issue 30, defect 6)', () => {
    const out = scrub(
      'Beneficiary asha.rao@example.com with VPA asha@okicici and account 026291800001191 exists',
      [],
    );
    assert.equal(
      out,
      'Beneficiary as***@example.com with VPA as***@okicici and account XXXXXXXXXXX1191 exists',
    );
  });
});
