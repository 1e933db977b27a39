import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxClock } from './clock.js';
import { bearerOf, TokenIssuer } from './tokens.js';

describe('TokenIssuer', () => {
  it('issues tokens that verify until the sandbox clock passes expiry', () => {
    const clock = new SandboxClock(() => 1_700_000_000_000);
    const issuer = new TokenIssuer(clock, 360);
    const { token, expiry } = issuer.issue('cid', 'ip');
    assert.equal(expiry, 1_700_000_360);
    assert.equal(issuer.verify(token)?.sub, 'cid');
    clock.advance(359_000);
    assert.ok(issuer.verify(token));
    clock.advance(1_000);
    assert.equal(issuer.verify(token), undefined);
  });
  it('refuses tampered tokens and forgets everything on rotate', () => {
    const issuer = new TokenIssuer(new SandboxClock(), 360);
    const { token } = issuer.issue('cid', 'signature');
    const [h, p, s] = token.split('.') as [string, string, string];
    assert.equal(issuer.verify(`${h}.${p}.${s.slice(1)}x`), undefined);
    assert.equal(issuer.verify('a.b'), undefined);
    assert.equal(issuer.verify(token)?.src, 'signature');
    issuer.rotate();
    assert.equal(issuer.verify(token), undefined);
  });
  it('reads bearer headers', () => {
    assert.equal(bearerOf('Bearer abc'), 'abc');
    assert.equal(bearerOf('bearer abc '), 'abc');
    assert.equal(bearerOf('Basic abc'), undefined);
    assert.equal(bearerOf(undefined), undefined);
  });
});
