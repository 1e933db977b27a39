import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Provider, { type Account } from 'oidc-provider';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ConfigError } from '#config';
import { eventually, freePort, operatorsEnv, skipUnless, startStack, type Stack } from '#test-support';
import { loadServiceConfig } from '../../apps/payout-service/src/service.config.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = process.env['CONSOLE_SCREENSHOTS'];
const CLIENT_ID = 'payouts-console';
const CLIENT_SECRET = 'oidc-test-client-secret-0123456789abcdef';
/** The break-glass operator (OPS_OPERATORS), beside the identity provider's users. */
const ROOT = { id: 'root', role: 'approver', token: 'break-glass-root-token-0123456789abcdef' } as const;

/** The identity provider's users and their groups claim: an approver, a viewer, and one with no mapped group. */
const USERS: Readonly<Record<string, readonly string[]>> = {
  ann: ['everyone', 'payouts-approvers'],
  vic: ['payouts-viewers'],
  nob: ['everyone', 'finance'],
};
const ROLE_MAP = 'payouts-viewers=viewer,payouts-operators=operator,payouts-approvers=approver';

const skip = skipUnless(
  existsSync(CHROMIUM),
  `${CHROMIUM} is missing: scripts/test.sh installs Debian's chromium as root (ensure_chromium); install it to run the browser test`,
);

/**
 * A certified OpenID provider (oidc-provider, in memory) on a free port: one confidential client,
 * the console, with its callbacks on the services' ports; PKCE required; its own login and consent
 * pages (devInteractions), where any password is taken and the login names the user.
 */
async function startIdentityProvider(port: number, callbacks: readonly string[]): Promise<Server> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: callbacks.map((b) => `${b}/console/auth/callback`),
        post_logout_redirect_uris: callbacks.map((b) => `${b}/console`),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], groups: ['groups'] },
    findAccount: (_ctx: unknown, id: string): Account | undefined =>
      USERS[id]
        ? { accountId: id, claims: () => ({ sub: id, preferred_username: id, name: id, groups: USERS[id] }) }
        : undefined,
    cookies: { keys: ['oidc-test-cookie-key-0123456789abcdef'] },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    // Lifetimes said (the library's defaults would be, with a notice each on stderr).
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 3600 },
  });
  const server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

describe('console sign-in with an OpenID provider (chromium)', { skip }, () => {
  let stack: Stack;
  let idp: Server;
  let issuer: string;
  let url: string;
  /** A second instance on the same database with a short idle expiry. */
  let shortUrl: string;
  let context: BrowserContext;
  let profile: string;
  let page: Page;

  const shot = async (name: string) => {
    if (!SHOTS) return;
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };

  const oidcEnv = (base: string, extra: Record<string, string> = {}) => ({
    HTTP_PORT: new URL(base).port,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_REDIRECT_URI: `${base}/console/auth/callback`,
    OIDC_SCOPES: 'openid profile groups',
    OIDC_ROLES_CLAIM: 'groups',
    OIDC_ROLE_MAP: ROLE_MAP,
    ...extra,
  });

  /** A person of the identity provider, as the service knows them: its issuer and their subject. */
  const human = (user: string) => `oidc:${issuer}#${user}`;

  const sessionCookie = async (): Promise<string | undefined> =>
    (await context.cookies(url)).find((c) => c.name === 'payouts_console_session')?.value;

  /** The counter of one instance (each has its own registry). */
  const signInCount = async (method: string, outcome: string, base = url): Promise<number> => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`payouts_ops_sign_ins_total{method="${method}",outcome="${outcome}"}`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  const audit = (where = 'true') =>
    stack.sql<{
      method: string;
      outcome: string;
      operator_id: string | null;
      role: string | null;
      token_id: string | null;
    }>(
      `SELECT method, outcome, operator_id, role, token_id::text AS token_id FROM operator_sign_in WHERE ${where} ORDER BY id`,
    );

  /** Through the console's button, the provider's login page and (the first time) its consent page. */
  const signIn = async (base: string, user: string) => {
    await page.goto(`${base}/console`);
    await page.click('#sign-in-oidc');
    await page.waitForURL((u) => u.port === new URL(issuer).port);
    await page.fill('input[name=login]', user);
    await page.fill('input[name=password]', 'any password: devInteractions takes it');
    await page.click('button[type=submit]');
    // The consent page, asked once per user and client.
    const consent = page.getByRole('button', { name: 'Continue' });
    await Promise.race([
      consent.click({ timeout: 5_000 }).catch(() => undefined),
      page.waitForURL((u) => u.port !== new URL(issuer).port, { timeout: 5_000 }).catch(() => undefined),
    ]);
  };

  before(async () => {
    const [idpPort, port, shortPort] = [await freePort(), await freePort(), await freePort()];
    issuer = `http://127.0.0.1:${idpPort}`;
    url = `http://127.0.0.1:${port}`;
    shortUrl = `http://127.0.0.1:${shortPort}`;
    profile = await mkdtemp(join(tmpdir(), 'oidc-chromium-'));
    const browser = chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
      viewport: { width: 1280, height: 860 },
      timeout: 30_000,
    });
    idp = await startIdentityProvider(idpPort, [url, shortUrl]);
    stack = await startStack({ env: { OPS_OPERATORS: operatorsEnv([ROOT]) } });
    await stack.startService(oidcEnv(url));
    await stack.startService(oidcEnv(shortUrl, { OPS_SESSION_IDLE_MS: '1500' }));
    context = await browser;
    // The provider's pages import a web font: nothing leaves this machine.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.abort());
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
  });

  after(async () => {
    await Promise.all([
      (async () => {
        await context?.close();
        if (profile) await rm(profile, { recursive: true, force: true });
      })(),
      stack?.close(),
      new Promise<void>((resolve) => (idp ? idp.close(() => resolve()) : resolve())),
    ]);
  });

  it('refuses an incomplete OpenID Connect configuration at boot, listing what is missing', () => {
    const base = { ...stack.env, OIDC_ISSUER: 'https://login.example.com/realms/payouts' };
    assert.throws(
      () => loadServiceConfig(base),
      (e: unknown) =>
        e instanceof ConfigError &&
        ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URI', 'OIDC_ROLE_MAP'].every((v) =>
          e.problems.some((p) => p.startsWith(v)),
        ),
    );
    assert.throws(
      () =>
        loadServiceConfig({
          ...stack.env,
          ...oidcEnv('http://payouts.internal:8080'),
          OIDC_ISSUER: 'http://login.example.com',
        }),
      (e: unknown) => e instanceof ConfigError && e.problems.some((p) => p.includes('must be https')),
    );
  });

  it('an approver signs in with the provider: a server-side session in an HttpOnly cookie, the role from the groups claim', async () => {
    await page.goto(`${url}/console`);
    await page.locator('#sign-in-oidc').waitFor();
    // Signed out, the views' tabs are not offered (the bar's flex layout used to override `hidden`).
    assert.equal(await page.locator('#nav').isVisible(), false, 'no navigation before sign-in');
    // Opening the console signed out is no failed sign-in: it would count toward the address's
    // limit (every operator behind one proxy shares it) and toward the OpsSignInFailures alert.
    assert.equal(await signInCount('token', 'missing'), 0, 'the console asked /ops with no credentials');
    await shot('sign-in');
    await signIn(url, 'ann');
    await page.locator('#who').getByText('ann (approver)').waitFor();
    await page.locator('[data-view=queue]').waitFor();
    assert.equal(await page.locator('a[data-nav=tokens]').isVisible(), true, 'an approver sees Tokens');
    const cookie = (await context.cookies(url)).find((c) => c.name === 'payouts_console_session');
    assert.ok(cookie, 'a session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.secure, false, 'plain http on a loopback host only');
    assert.ok(cookie.value.length >= 43, 'an opaque random id');
    // The page holds no secret; the database only the id's hash.
    assert.equal(await page.evaluate('sessionStorage.length'), 0);
    assert.equal(
      (await stack.sql(`SELECT 1 FROM operator_session WHERE id_sha256 = $1`, [cookie.value])).length,
      0,
    );
    assert.equal(
      (
        await stack.sql(`SELECT operator_id, role FROM operator_session WHERE operator_id = $1`, [
          human('ann'),
        ])
      )[0]?.['role'],
      'approver',
    );
    assert.equal(await signInCount('oidc', 'success'), 1);
    assert.deepEqual(
      (await audit(`method = 'oidc'`)).map((r) => [r.outcome, r.operator_id, r.role]),
      [['success', human('ann'), 'approver']],
    );
  });

  it('a change made with the session cookie needs the console header (no cross-site request forgery)', async () => {
    const cookie = `payouts_console_session=${await sessionCookie()}`;
    const me = await fetch(`${url}/ops/me`, { headers: { cookie } });
    assert.equal(me.status, 200);
    assert.deepEqual(
      [((await me.json()) as { id: string; name: string }).id],
      [human('ann')],
      'the person is the issuer and subject, not the username',
    );
    const forged = await fetch(`${url}/ops/tokens`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'forged', role: 'viewer' }),
    });
    assert.equal(forged.status, 403);
    assert.equal((await stack.sql(`SELECT 1 FROM ops_token WHERE name = 'forged'`)).length, 0);
  });

  it('an approver issues a token in the console (shown once), it works on the ops API, is revoked, then refused', async () => {
    await page.click('a[data-nav=tokens]');
    await page.fill('#token-form input[name=name]', 'nightly-report');
    await page.selectOption('#token-form select[name=role]', 'viewer');
    await page.fill('#token-form input[name=ttlHours]', '24');
    await page.click('#token-form button[type=submit]');
    const token = (await page.locator('#token-secret').innerText()).trim();
    assert.match(token, /^pot_[A-Za-z0-9_-]{43}$/);
    await page.locator('#tokens-table').getByText('nightly-report').waitFor();
    assert.ok(!(await page.locator('#tokens-table').innerText()).includes(token), 'the list never shows it');
    await shot('tokens');

    const asToken = (path: string) =>
      fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const me = await asToken('/ops/me');
    assert.equal(me.status, 200);
    assert.deepEqual(((await me.json()) as { id: string; role: string }).role, 'viewer');
    assert.equal((await asToken('/ops/tokens')).status, 403, 'a viewer token cannot manage tokens');
    const [row] = await stack.sql<{ token_sha256: string; id: string }>(
      `SELECT token_sha256, id::text AS id FROM ops_token WHERE name = 'nightly-report'`,
    );
    assert.ok(row && row.token_sha256 !== token && /^[0-9a-f]{64}$/.test(row.token_sha256), 'stored hashed');
    const listed = await (
      await fetch(`${url}/ops/tokens`, { headers: { authorization: `Bearer ${ROOT.token}` } })
    ).text();
    assert.ok(
      !listed.includes(token) && !listed.includes(row.token_sha256),
      'no secret, no hash in the list',
    );

    await page.locator(`button[data-revoke="${row.id}"]`).click();
    await page.click('#confirm-ok');
    await page.locator('#tokens-table').getByText('revoked by ann').waitFor();
    const refused = await asToken('/ops/me');
    assert.equal(refused.status, 401);
    assert.match(((await refused.json()) as { detail: string }).detail, /revoked/);
    assert.equal(await signInCount('token', 'revoked_token'), 1);
    assert.deepEqual(
      (await audit(`method = 'token' AND token_id = ${Number(row.id)}`)).map((r) => [
        r.outcome,
        r.operator_id,
      ]),
      [
        ['success', human('ann')],
        ['revoked_token', null],
      ],
    );
    const actions = await stack.sql<{ action: string; operator_id: string }>(
      `SELECT action, operator_id FROM operator_action WHERE action LIKE 'token_%' ORDER BY id`,
    );
    assert.deepEqual(
      actions.map((a) => [a.action, a.operator_id]),
      [
        ['token_issue', human('ann')],
        ['token_revoke', human('ann')],
      ],
    );
  });

  it('an expired token is refused', async () => {
    const issued = await fetch(`${url}/ops/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ROOT.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'short-lived', role: 'operator', ttlHours: 1 / 3600 }),
    });
    assert.equal(issued.status, 201);
    const { token } = (await issued.json()) as { token: string };
    const asToken = () => fetch(`${url}/ops/me`, { headers: { authorization: `Bearer ${token}` } });
    await eventually(async () => ((await asToken()).status === 401 ? true : undefined), {
      what: 'the token past its expiry',
      timeoutMs: 5_000,
    });
    const res = await asToken();
    assert.match(((await res.json()) as { detail: string }).detail, /expired/);
    assert.ok((await signInCount('token', 'expired_token')) >= 1);
    // Nothing of any token, code or secret in the service's log.
    const log = stack.logLines.join('\n');
    for (const secret of [token, CLIENT_SECRET, ROOT.token]) assert.ok(!log.includes(secret));
  });

  it('a session idle longer than the instance allows sends the operator back to sign in', async () => {
    // Used just now here (the idle clock restarts), then on another instance on the same
    // database (sessions are rows, not memory): signed in there too.
    await page.goto(`${url}/console`);
    await page.locator('#who').getByText('ann (approver)').waitFor();
    await page.goto(`${shortUrl}/console`);
    await page.locator('#who').getByText('ann (approver)').waitFor();
    await page.waitForTimeout(2_000);
    await page.click('text=Refresh');
    await page.getByText('Your session has ended; sign in again.').waitFor();
    await page.locator('#sign-in-oidc').waitFor();
    assert.ok((await signInCount('session', 'expired', shortUrl)) >= 1);
  });

  it('signs out here and at the provider: the cookie no longer works', async () => {
    const before = await sessionCookie();
    assert.ok(before);
    // The idle instance refused it; this one (30 minutes idle) still takes it.
    await page.goto(`${url}/console`);
    await page.locator('#who').getByText('ann (approver)').waitFor();
    await page.click('#sign-out');
    await page.waitForURL((u) => u.port === new URL(issuer).port);
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL((u) => u.port === new URL(url).port);
    await page.locator('#sign-in-oidc').waitFor();
    const res = await fetch(`${url}/ops/me`, { headers: { cookie: `payouts_console_session=${before}` } });
    assert.equal(res.status, 401);
    assert.equal(await sessionCookie(), undefined, 'the browser dropped it');
    assert.deepEqual(
      (await audit(`outcome = 'signed_out'`)).map((r) => r.operator_id),
      [human('ann')],
    );
  });

  it('a viewer signs in and sees no approver tools', async () => {
    await signIn(url, 'vic');
    await page.locator('#who').getByText('vic (viewer)').waitFor();
    assert.equal(await page.locator('a[data-nav=tokens]').isVisible(), false);
    const cookie = `payouts_console_session=${await sessionCookie()}`;
    assert.equal((await fetch(`${url}/ops/tokens`, { headers: { cookie } })).status, 403);
    await page.click('#sign-out');
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.locator('#sign-in-oidc').waitFor();
  });

  it('a user whose groups map to no role is refused with a clear page, counted and audited', async () => {
    await signIn(url, 'nob');
    await page.getByText('holds no role in the payouts console').waitFor();
    assert.equal(await sessionCookie(), undefined);
    await shot('sign-in-refused');
    assert.equal(await signInCount('oidc', 'no_role'), 1);
    assert.deepEqual(
      (await audit(`outcome = 'no_role'`)).map((r) => [r.method, r.operator_id, r.role]),
      [['oidc', human('nob'), null]],
    );
    // A callback replayed (the same code, or no sign-in under way) starts nothing.
    const replay = await fetch(`${url}/console/auth/callback?code=x&state=y`);
    assert.equal(replay.status, 400);
    // A sign-in under way whose callback does not match it (a forged state and code): the library
    // refuses it; the log says why in codes, never the code itself.
    const start = await fetch(`${url}/console/auth/login`, { redirect: 'manual' });
    const login = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    assert.match(login, /^payouts_console_login=[\w-]{43}$/);
    const forged = await fetch(`${url}/console/auth/callback?code=forged-code-value&state=forged-state`, {
      headers: { cookie: login },
    });
    assert.equal(forged.status, 502);
    assert.equal(await signInCount('oidc', 'provider_error'), 1);
    const line = await eventually(() =>
      stack.logLines.find((l) => l.includes('the identity provider did not confirm a sign-in')),
    );
    assert.match(line, /"error":"\w+/);
    assert.ok(!line.includes('forged-code-value'));
    const log = stack.logLines.join('\n');
    assert.ok(!log.includes(CLIENT_SECRET));
  });

  it('an address starting sign-ins in a loop is refused before it fills the table', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await fetch(`${url}/console/auth/login`, { redirect: 'manual' })).status);
    assert.ok(statuses.includes(302) && statuses.at(-1) === 429, statuses.join(','));
    const [rows] = await stack.sql<{ n: string }>(`SELECT count(*) AS n FROM operator_login`);
    assert.ok(Number(rows?.n) <= 20, `${rows?.n} sign-ins under way`);
  });
});
