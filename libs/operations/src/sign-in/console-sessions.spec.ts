import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { Registry } from 'prom-client';
import { OperationsError, OperationsErrorCode } from '../operations.errors.js';
import { SignInMetrics } from '../sign-in-gate.js';
import { allowSecondPerson } from '../use-cases/shared/operator-actions.js';
import { ConsoleSessions, sessionEnd, sha256Of } from './console-sessions.js';
import { type Identity, type IdentityProvider } from './oidc-client.js';
import { type OperatorSessionRepository, type PendingLogin } from './operator-session.repository.js';
import { roleMapSchema } from './role-map.js';
import { type SignInAuditEntry, type SignInAuditRepository } from './sign-in-audit.repository.js';
import { SignInRecorder } from './sign-in-recorder.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-24T10:00:00Z');
const pool = {} as pg.Pool;

function fixture(identity: Partial<Identity> & { groups?: unknown } = {}) {
  const pending = new Map<string, PendingLogin>();
  const created: Array<{
    idSha256: string;
    operatorId: string;
    operatorName: string;
    role: string;
    expiresAt: Date;
  }> = [];
  const audited: SignInAuditEntry[] = [];
  const repository = {
    savePending: (_db: unknown, h: string, p: PendingLogin) => {
      pending.set(h, p);
      return Promise.resolve();
    },
    takePending: (_db: unknown, h: string) => {
      const p = pending.get(h);
      pending.delete(h);
      return Promise.resolve(p);
    },
    create: (_db: unknown, s: (typeof created)[number]) => {
      created.push(s);
      return Promise.resolve();
    },
  } as unknown as OperatorSessionRepository;
  const provider: IdentityProvider = {
    authorize: () =>
      Promise.resolve({
        url: new URL('https://idp.example/auth'),
        state: 'st',
        nonce: 'no',
        codeVerifier: 'cv',
      }),
    finish: (_url, p) => {
      assert.deepEqual(p, { state: 'st', nonce: 'no', codeVerifier: 'cv' });
      return Promise.resolve({
        issuer: 'https://idp.example',
        subject: identity.subject ?? 'sub-1',
        name: identity.name ?? 'ann',
        claims: { groups: identity.groups ?? ['payouts-approvers'] },
        expiresAt: identity.expiresAt ?? NOW + HOUR,
      });
    },
    endSessionUrl: () => Promise.resolve(undefined),
  };
  const registry = new Registry();
  const recorder = new SignInRecorder(
    pool,
    {
      record: (_db: unknown, e: SignInAuditEntry) => {
        audited.push(e);
        return Promise.resolve();
      },
    } as unknown as SignInAuditRepository,
    new SignInMetrics(registry),
    60_000,
  );
  const sessions = new ConsoleSessions({
    pool,
    repository,
    provider,
    settings: {
      issuer: new URL('https://idp.example'),
      clientId: 'c',
      clientSecret: 's',
      redirectUri: new URL('https://payouts.example/console/auth/callback'),
      scopes: 'openid',
      rolesClaim: 'groups',
      roleMap: roleMapSchema.parse('payouts-approvers=approver,payouts-viewers=viewer'),
    },
    policy: { maxAgeMs: 8 * HOUR, idleMs: HOUR / 2 },
    recorder,
    now: () => NOW,
  });
  return { sessions, created, audited, pending };
}

const callback = new URL('https://payouts.example/console/auth/callback?code=c&state=st');

describe('console sessions', () => {
  it('a session ends at its maximum age, or at the ID token expiry if that is sooner', () => {
    const policy = { maxAgeMs: 8 * HOUR, idleMs: HOUR };
    assert.equal(sessionEnd(NOW, policy, NOW + 24 * HOUR).getTime(), NOW + 8 * HOUR);
    assert.equal(sessionEnd(NOW, policy, NOW + HOUR).getTime(), NOW + HOUR);
  });

  it('a sign-in: the pending row by the hash of the cookie id, a session bound to the ID token expiry', async () => {
    const f = fixture({ expiresAt: NOW + 5 * 60_000 });
    const { loginId, url } = await f.sessions.start();
    assert.equal(url.origin, 'https://idp.example');
    assert.deepEqual([...f.pending.keys()], [sha256Of(loginId)]);
    const r = await f.sessions.finish(loginId, callback, '10.0.0.1');
    assert.ok(r.ok);
    assert.deepEqual(r.operator, {
      id: 'oidc:https://idp.example#sub-1',
      name: 'ann',
      role: 'approver',
      via: { kind: 'session' },
    });
    assert.deepEqual(
      [f.created[0]?.operatorId, f.created[0]?.operatorName],
      ['oidc:https://idp.example#sub-1', 'ann'],
      'the session keeps the human id, and the name apart',
    );
    assert.equal(r.expiresAt.getTime(), NOW + 5 * 60_000, 'no longer than the ID token');
    assert.equal(f.created[0]?.idSha256, sha256Of(r.sessionId), 'only the hash is stored');
    assert.deepEqual(f.audited, [
      {
        method: 'oidc',
        outcome: 'success',
        operatorId: 'oidc:https://idp.example#sub-1',
        role: 'approver',
        source: '10.0.0.1',
      },
    ]);
    const again = await f.sessions.finish(loginId, callback, '10.0.0.1');
    assert.deepEqual(again, { ok: false, reason: 'no_login' }, 'a callback is answered once');
  });

  it('no mapped role: refused, audited with who, no session', async () => {
    const f = fixture({ groups: ['everyone'] });
    const { loginId } = await f.sessions.start();
    assert.deepEqual(await f.sessions.finish(loginId, callback, 'x'), {
      ok: false,
      reason: 'no_role',
      who: 'ann',
    });
    assert.equal(f.created.length, 0);
    assert.deepEqual(
      f.audited.map((a) => [a.outcome, a.operatorId]),
      [['no_role', 'oidc:https://idp.example#sub-1']],
    );
  });

  it('a person is the issuer and subject: the same preferred_username with another subject is another human; a renamed subject the same one', async () => {
    const signIn = async (subject: string, name: string) => {
      const f = fixture({ subject, name });
      const { loginId } = await f.sessions.start();
      const r = await f.sessions.finish(loginId, callback, '10.0.0.1');
      assert.ok(r.ok);
      return r.operator;
    };
    const ann = await signIn('sub-1', 'ann');
    const otherAnn = await signIn('sub-2', 'ann');
    const renamed = await signIn('sub-1', 'ann.k');
    assert.equal(ann.name, otherAnn.name, 'the same username');
    assert.notEqual(ann.id, otherAnn.id, '… is two people');
    assert.equal(renamed.id, ann.id, 'a changed username is the same person');
    assert.equal(renamed.name, 'ann.k', 'shown by the new name');
    // Four eyes compares the people: two humans may; the renamed one may not decide her own.
    assert.doesNotThrow(() => allowSecondPerson(otherAnn, ann.id, 'proposal 1'));
    assert.throws(
      () => allowSecondPerson(renamed, ann.id, 'proposal 1'),
      (e: unknown) => e instanceof OperationsError && e.code === OperationsErrorCode.Forbidden,
    );
  });

  it('no sign-in under way (no cookie, or another browser): refused before the provider is asked', async () => {
    const f = fixture();
    assert.deepEqual(await f.sessions.finish(undefined, callback, 'x'), { ok: false, reason: 'no_login' });
    assert.deepEqual(await f.sessions.finish('forged', callback, 'x'), { ok: false, reason: 'no_login' });
  });
});
