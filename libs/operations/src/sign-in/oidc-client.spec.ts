import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { operatorNameOf } from './oidc-client.js';

// The operator id goes into logs, audit rows and ops API answers: never an e-mail address.
describe('operatorNameOf', () => {
  it('takes a plain preferred_username', () => {
    assert.equal(operatorNameOf({ preferred_username: 'ann' }, 'sub-1'), 'ann');
  });
  it('falls back to the subject, never to the email claim', () => {
    assert.equal(operatorNameOf({ email: 'ann@example.com' }, 'sub-1'), 'sub-1');
    assert.equal(operatorNameOf({ preferred_username: '' }, 'sub-1'), 'sub-1');
  });
  it('passes over a preferred_username that is an address (Entra UPN, Keycloak email-as-username)', () => {
    assert.equal(
      operatorNameOf({ preferred_username: 'ann@corp.example', email: 'ann@corp.example' }, 'sub-2'),
      'sub-2',
    );
  });
});
