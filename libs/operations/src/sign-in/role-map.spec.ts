import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { claimAt, roleFromClaims, roleMapSchema } from './role-map.js';

const map = roleMapSchema.parse('payouts-viewers=viewer, payouts-ops=operator,cn=approvers=approver');

describe('role map', () => {
  it('parses value=role entries, the role after the last =', () => {
    assert.deepEqual(
      [...map],
      [
        ['payouts-viewers', 'viewer'],
        ['payouts-ops', 'operator'],
        ['cn=approvers', 'approver'],
      ],
    );
  });

  it('refuses an unknown role, an entry without a value, and a value mapped twice', () => {
    for (const bad of ['a=admin', '=viewer', 'novalue', 'a=viewer,a=approver'])
      assert.equal(roleMapSchema.safeParse(bad).success, false, bad);
    assert.equal(roleMapSchema.parse('').size, 0);
  });

  it('takes the highest mapped role of a list claim, a string claim, or a nested one', () => {
    assert.equal(
      roleFromClaims({ groups: ['other', 'payouts-viewers', 'payouts-ops'] }, 'groups', map),
      'operator',
    );
    assert.equal(roleFromClaims({ groups: 'payouts-viewers' }, 'groups', map), 'viewer');
    assert.equal(
      roleFromClaims({ realm_access: { roles: ['payouts-ops'] } }, 'realm_access.roles', map),
      'operator',
    );
    assert.equal(claimAt({ 'https://x.example/groups': ['a'] }, 'https://x.example/groups')?.toString(), 'a');
  });

  it('maps nothing to no role: no claim, unmapped values, values of another type', () => {
    assert.equal(roleFromClaims({}, 'groups', map), undefined);
    assert.equal(roleFromClaims({ groups: ['everyone'] }, 'groups', map), undefined);
    assert.equal(roleFromClaims({ groups: [1, { a: 'payouts-ops' }] }, 'groups', map), undefined);
    assert.equal(roleFromClaims({ groups: { 'payouts-ops': true } }, 'groups', map), undefined);
    assert.equal(roleFromClaims({ toString: 'payouts-ops' }, 'constructor', map), undefined);
  });
});
