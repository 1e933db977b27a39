import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  OperatorActionRepository,
  OperatorSessionRepository,
  OpsTokenRepository,
  OpsTokens,
  sha256Of,
  tokenSha256,
} from '#operations';
import { createTestDatabase, type TestDatabase } from '#test-support';

// The sign-in statements on a real Postgres: a session ends at its absolute expiry, when idle,
// and on sign-out; a pending sign-in is taken once; an issued token is live, then expired or
// revoked, and only its hash is kept. The browser test (test/console/oidc-sign-in.int-spec.ts)
// walks the same through the service.
describe('operator sessions and automation tokens (real Postgres)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const sessions = new OperatorSessionRepository();

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
  });
  after(async () => {
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });

  const session = async (id: string, expiresInMs: number) =>
    sessions.create(pool, {
      idSha256: sha256Of(id),
      operatorId: `op-${id}`,
      operatorName: `name-${id}`,
      role: 'operator',
      subject: `sub-${id}`,
      expiresAt: new Date(Date.now() + expiresInMs),
    });

  it('a session is found by the hash of its id, until its absolute end', async () => {
    await session('abs', 600);
    assert.equal((await sessions.touch(pool, sha256Of('abs'), 60_000))?.operatorId, 'op-abs');
    assert.equal(await sessions.touch(pool, 'abs', 60_000), undefined, 'never by the id itself');
    await sleep(700);
    assert.equal(await sessions.touch(pool, sha256Of('abs'), 60_000), undefined, 'past its absolute end');
  });

  it('a session used within the idle limit lives on; one idle longer ends', async () => {
    await session('idle', 60_000);
    for (let i = 0; i < 3; i++) {
      await sleep(250);
      assert.ok(await sessions.touch(pool, sha256Of('idle'), 400), `use ${i} restarts the idle clock`);
    }
    await sleep(500);
    assert.equal(await sessions.touch(pool, sha256Of('idle'), 400), undefined);
  });

  it('a signed-out session no longer works, and is ended once', async () => {
    await session('out', 60_000);
    assert.equal((await sessions.end(pool, sha256Of('out')))?.operatorId, 'op-out');
    assert.equal(await sessions.end(pool, sha256Of('out')), undefined);
    assert.equal(await sessions.touch(pool, sha256Of('out'), 60_000), undefined);
  });

  it('a pending sign-in is taken once, and not after its time', async () => {
    const p = { state: 's', nonce: 'n', codeVerifier: 'v' };
    await sessions.savePending(pool, 'h1', p, 60_000);
    assert.deepEqual(await sessions.takePending(pool, 'h1'), p);
    assert.equal(await sessions.takePending(pool, 'h1'), undefined, 'a callback replayed');
    await sessions.savePending(pool, 'h2', p, 1);
    await sleep(20);
    assert.equal(await sessions.takePending(pool, 'h2'), undefined);
  });

  it('an issued token is live, then refused once revoked or expired; stored as its hash; the name is free again once revoked', async () => {
    const tokens = new OpsTokens({
      pool,
      tokens: new OpsTokenRepository(),
      actions: new OperatorActionRepository(),
      maxTtlMs: 3_600_000,
    });
    const ann = { id: 'ann', name: 'Ann', role: 'approver', via: { kind: 'configured' } } as const;
    const a = await tokens.issue(ann, { name: 'ci', role: 'operator' });
    assert.deepEqual(await tokens.check(a.token), {
      ok: true,
      operator: {
        id: 'ann',
        name: 'Ann',
        role: 'operator',
        via: { kind: 'token', tokenId: a.id, tokenName: 'ci' },
      },
      tokenId: a.id,
    });
    // A token acts for its issuer, and cannot issue or revoke tokens itself.
    const asToken = {
      id: 'ann',
      name: 'Ann',
      role: 'approver',
      via: { kind: 'token', tokenId: a.id, tokenName: 'ci' },
    } as const;
    await assert.rejects(tokens.issue(asToken, { name: 'minted', role: 'viewer' }), /automation token/);
    await assert.rejects(tokens.revoke(asToken, a.id), /automation token/);
    const stored = await pool.query<{ token_sha256: string }>(`SELECT token_sha256 FROM ops_token`);
    assert.deepEqual(
      stored.rows.map((r) => r.token_sha256),
      [tokenSha256(a.token)],
    );
    await assert.rejects(tokens.issue(ann, { name: 'ci', role: 'viewer' }), /not revoked/);
    await tokens.revoke(ann, a.id);
    assert.deepEqual(await tokens.check(a.token), { ok: false, reason: 'revoked_token', tokenId: a.id });
    await assert.rejects(tokens.revoke(ann, a.id), /already revoked/);
    await assert.rejects(tokens.revoke(ann, '999'), /no token/);

    const b = await tokens.issue(ann, { name: 'ci', role: 'viewer', ttlHours: 0.5 / 3600 });
    await sleep(700);
    assert.deepEqual(await tokens.check(b.token), { ok: false, reason: 'expired_token', tokenId: b.id });
    assert.deepEqual(await tokens.check('pot_not-one-of-ours'), { ok: false, reason: 'unknown_token' });

    await assert.rejects(tokens.issue(ann, { name: 'x', role: 'viewer', ttlHours: 2 }), /at most 1/);
    await assert.rejects(
      tokens.issue(
        { id: 'olga', name: 'olga', role: 'operator', via: { kind: 'configured' } },
        { name: 'up', role: 'viewer' },
      ),
      /may not tokens/,
    );
    const listed = JSON.stringify(await tokens.list(10));
    assert.ok(!listed.includes(a.token) && !listed.includes(tokenSha256(a.token)));
  });
});
