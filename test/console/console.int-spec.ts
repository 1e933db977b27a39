import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { eventually, skipUnless, startStack, type Stack } from '#test-support';

const CHROMIUM = '/usr/bin/chromium';
/** Two operators, each with their own token: Alice proposes, Bob approves (four eyes). */
const ALICE = 'console-alice-token-0123456789abcdef';
const BOB = 'console-bob-token-0123456789abcdef-bob';
const VERA = 'console-vera-token-0123456789abcdef-vera';
const TOKEN = ALICE;
const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');
const ACCOUNT = 'default';
/** `CONSOLE_SCREENSHOTS=docs/console` saves the main views there (not on every run). */
const SHOTS = process.env['CONSOLE_SCREENSHOTS'];

const skip = skipUnless(
  existsSync(CHROMIUM),
  `${CHROMIUM} is missing: scripts/test.sh installs Debian's chromium as root (ensure_chromium); install it to run the browser test`,
);

// The web console in a real browser (Debian's chromium, headless, driven by playwright-core)
// against a whole stack: sign in, the queue, a payout, a recheck, search, dead letters.
describe('web console (chromium)', { skip }, () => {
  let stack: Stack;
  let url: string;
  let context: BrowserContext;
  let profile: string;
  let page: Page;

  const shot = async (name: string) => {
    if (!SHOTS) return;
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };

  /** A row straight into the ledger (as test/ops does): a state the pipeline takes long to reach. */
  const insertPayout = async (p: { transferId: string; kind: string; status: string; reason?: string }) => {
    await stack.sql(
      `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, version, attempt, reason)
       VALUES ($1, $2, $3, 'test-hash', $4::jsonb, '75.50', $5, 3, 1, $6)`,
      [
        ACCOUNT,
        p.transferId,
        p.kind,
        JSON.stringify({ beneDetails: { bankAccount: '026291800001191', ifsc: 'YESB0000262' } }),
        p.status,
        p.reason ?? null,
      ],
    );
  };

  const launchBrowser = async (): Promise<BrowserContext> => {
    profile = await mkdtemp(join(tmpdir(), 'console-chromium-'));
    return chromium.launchPersistentContext(profile, {
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
  };

  before(async () => {
    // The browser starts while the stack does: they do not depend on each other.
    const browser = launchBrowser();
    stack = await startStack({
      // "pending, then success" stays pending for 10 sandbox minutes and the reconciler gives up
      // after three looks: a payout reaches REQUIRES_ATTENTION in about a second.
      sandbox: { pendingDelayMs: 600_000 },
      env: {
        OPS_OPERATORS: `alice:operator:${sha256(ALICE)},bob:approver:${sha256(BOB)},vera:viewer:${sha256(VERA)}`,
        RECONCILE_SCHEDULE: '200ms,200ms,200ms',
      },
    });
    url = (await stack.startService()).url;
    context = await browser;
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
    ]);
  });

  it('serves the console with a strict CSP and no secret in it', async () => {
    const res = await fetch(`${url}/console`);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const d of [
      "default-src 'none'",
      "script-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "require-trusted-types-for 'script'",
    ])
      assert.ok(csp.includes(d), `CSP has ${d}: ${csp}`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const html = await res.text();
    assert.ok(!html.includes(TOKEN));
    for (const file of ['app.js', 'api.js', 'dom.js', 'console.css']) {
      const r = await fetch(`${url}/console/${file}`);
      assert.equal(r.status, 200, file);
      assert.ok(r.headers.get('content-security-policy'), `${file} carries the CSP`);
      assert.ok(!(await r.text()).includes(TOKEN));
    }
    const etag = (await fetch(`${url}/console/app.js`)).headers.get('etag') ?? '';
    assert.equal((await fetch(`${url}/console/app.js`, { headers: { 'if-none-match': etag } })).status, 304);
    for (const bad of ['tsconfig.json', '..%2Fpackage.json', '..%2F..%2Fsrc%2Fmain.ts', 'nope.js'])
      assert.equal((await fetch(`${url}/console/${bad}`)).status, 404, bad);
    // With a trailing slash the page's relative links would miss: sent to the page's address.
    const slash = await fetch(`${url}/console/`, { redirect: 'manual' });
    assert.equal(slash.status, 301);
    assert.equal(new URL(slash.headers.get('location') ?? '', `${url}/console/`).pathname, '/console');
  });

  it('refuses a wrong token, then signs in; the token lives in sessionStorage, never in a URL', async () => {
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await page.goto(`${url}/console`);
    // No identity provider configured (OIDC_ISSUER unset): token sign-in only, as before.
    await page.locator('#token').waitFor();
    assert.equal(await page.locator('#sign-in-oidc').count(), 0);
    assert.deepEqual(await (await fetch(`${url}/console/auth/methods`)).json(), {
      oidc: false,
      token: true,
      session: false,
    });
    assert.equal((await fetch(`${url}/console/auth/login`, { redirect: 'manual' })).status, 404);
    await page.fill('#token', 'not-the-token-not-the-token');
    await page.click('button[type=submit]');
    await page.getByText('That token was refused.').waitFor();
    await page.fill('#token', TOKEN);
    await page.click('button[type=submit]');
    await page.locator('[data-view=queue]').waitFor();
    await page.locator('#who').getByText('alice (operator)').waitFor();
    assert.equal(await page.evaluate("sessionStorage.getItem('payouts-console-token')"), TOKEN);
    assert.ok(urls.length > 3);
    for (const u of urls) assert.ok(!u.includes(TOKEN), `no token in ${u}`);
    assert.ok(!page.url().includes(TOKEN));
  });

  it('shows a REQUIRES_ATTENTION payout in the queue, masked, and renders data only as text', async () => {
    await stack.send({
      type: 'payout.direct_transfer',
      data: {
        transferId: 'con_pending_1',
        amount: '42.10',
        beneDetails: { name: 'A Person', bankAccount: '00224412311300', ifsc: 'YESB0000001' },
      },
    });
    // A self withdrawal whose answer is lost after the provider applied it: no status endpoint,
    // so the service hands it to a person at once.
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'selfWithdrawal',
      loseAnswer: 'reset',
      times: 1,
    });
    await stack.send({
      type: 'payout.self_withdrawal',
      data: { withdrawalId: 'con_wd_1', amount: '75.50', remarks: 'console test' },
    });
    // A reason that is HTML: it must show as these characters, and never run.
    await insertPayout({
      transferId: 'con_html_1',
      kind: 'standard_transfer',
      status: 'REQUIRES_ATTENTION',
      reason: '<img src=x onerror="window.__pwned=1">',
    });
    await stack.waitForStatus('con_wd_1', 'REQUIRES_ATTENTION');
    await stack.waitForStatus('con_pending_1', 'REQUIRES_ATTENTION');
    await page.click('text=Refresh');
    const queue = page.locator('#queue-payouts');
    await queue.getByText('con_pending_1').waitFor();
    await queue.getByText('con_wd_1').waitFor();
    await queue.getByText('con_html_1').waitFor();
    assert.equal(await queue.getByText('<img src=x onerror="window.__pwned=1">').count(), 1);
    assert.equal(await page.locator('#queue-payouts img').count(), 0);
    assert.equal(await page.evaluate('window.__pwned'), undefined);
    const text = await page.locator('main').innerText();
    assert.ok(!text.includes('00224412311300'), 'no full account number');
    // Trusted Types with no policy: HTML from a string is refused by the page itself.
    // (page scripts are strings here: the test's TypeScript has no DOM types)
    const refused = await page.evaluate(`(() => {
      try { document.body.insertAdjacentHTML('beforeend', '<b>x</b>'); return false; } catch { return true; }
    })()`);
    assert.equal(refused, true, 'the CSP refuses HTML from strings');
    await shot('queue');
  });

  it('opens a payout and rechecks it after confirming; cancelling does nothing', async () => {
    await page.locator('#queue-payouts').getByText('con_pending_1').click();
    await page.locator('#payout-fields').getByText('REQUIRES_ATTENTION').waitFor();
    assert.match(page.url(), /#\/payout\/default\/con_pending_1$/);
    assert.ok((await page.locator('#payout-fields').innerText()).includes('XXXXXXXXXX1300'));
    // A payout page is none of the tabs (it used to light up "Search"), and it fits its window at
    // every width, the page's own maximum included (it was 1,430 px wide in a 1,400 px window).
    assert.deepEqual(await page.locator('#nav a.active').allInnerTexts(), []);

    await page.click('#recheck');
    await page.locator('#confirm[open]').waitFor();
    await page.click('#confirm button[value=cancel]');
    await page.waitForTimeout(300);
    assert.equal(
      stack.eventsOf('con_pending_1').at(-1)?.data.status,
      'REQUIRES_ATTENTION',
      'cancel: no change',
    );
    assert.ok(!stack.eventsOf('con_pending_1').some((e) => e.data.reason === 'operator_recheck'));

    await page.click('#recheck');
    await page.click('#confirm-ok');
    await page.locator('#action-result').getByText('Recheck accepted (reopened)').waitFor();
    await eventually(
      () => stack.eventsOf('con_pending_1').find((e) => e.data.reason === 'operator_recheck'),
      { what: 'the UNKNOWN event of the recheck' },
    );
    // The timeline (durable history) shows the operator's change, with who made it.
    await page.click('text=Refresh');
    const row = page.locator('#timeline-table tr', { hasText: 'operator_recheck' });
    await row.getByText('alice').waitFor();
    await page.locator('#actions-table').getByText('recheck').first().waitFor();
    for (const width of [1000, 1400, 1600]) {
      await page.setViewportSize({ width, height: 860 });
      const wide = Number(await page.evaluate('document.documentElement.scrollWidth'));
      assert.ok(wide <= width, `the payout page is ${wide} px wide in a ${width} px window`);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    await shot('timeline');
  });

  it('a self withdrawal cannot be rechecked: the refusal is shown', async () => {
    await page.goto(`${url}/console#/payout/${ACCOUNT}/con_wd_1`);
    await page.locator('#payout-fields').waitFor();
    await page.click('#recheck');
    await page.click('#confirm-ok');
    await page.locator('#action-result').getByText('no_status_endpoint').waitFor();
    // The problem's detail (RFC 9457), not only its code.
    await page.locator('#action-result').getByText('has no status endpoint', { exact: false }).waitFor();
  });

  it('searches by transferId prefix and status, pages with a cursor, and exports the same filter as CSV', async () => {
    await page.click('a[data-nav=search]');
    await page.fill('#search input[name=transferIdPrefix]', 'con_');
    await page.click('#search button[type=submit]');
    const results = page.locator('#search-results');
    await results.getByText('con_pending_1').waitFor();
    await results.getByText('con_wd_1').waitFor();
    assert.match(page.url(), /#\/search\?transferIdPrefix=con_$/);
    await page.selectOption('#search select[name=status]', 'REQUIRES_ATTENTION');
    await page.fill('#search input[name=transferIdPrefix]', 'con_w');
    await page.click('#search button[type=submit]');
    await results.getByText('con_wd_1').waitFor();
    assert.equal(await results.getByText('con_pending_1').count(), 0);
    await shot('search');

    const download = page.waitForEvent('download');
    await page.click('#export');
    const csv = await readFile((await (await download).path()) ?? '', 'utf8');
    assert.match(csv, /^accountId,transferId,/);
    assert.ok(csv.includes('"con_wd_1"'), csv);
    assert.ok(!csv.includes('con_pending_1'), 'the same filter as the list');
    assert.ok(!csv.includes('026291800001191'), 'masked');

    // Two rows a page (the API's cursor): "More" brings the third, and there is no fourth.
    await page.goto(`${url}/console#/search?transferIdPrefix=con_&limit=2`);
    await results.locator('tbody tr').nth(1).waitFor();
    assert.equal(await results.locator('tbody tr').count(), 2);
    await page.click('#more');
    await results.locator('tbody tr').nth(2).waitFor();
    const ids = await results.locator('tbody tr td:first-child').allInnerTexts();
    assert.deepEqual([...ids].sort(), ['con_html_1', 'con_pending_1', 'con_wd_1']);
    assert.equal(await page.locator('#more').count(), 0, 'the last page');
  });

  it('lists dead outbox rows and dead letters, and replays a dead row after confirming', async () => {
    const payload = JSON.stringify({ id: 'con_dead_1:9', data: { status: 'SUCCESS' } });
    await stack.sql(
      `INSERT INTO outbox (message_key, event_id, event_type, topic, payload, state, attempts, last_error)
       VALUES ('payout/default/con_dead_1', 'payout/default/con_dead_1:9', 'payouts.payout.succeeded',
               'payouts.events', $1::jsonb, 'dead', 15, 'broker said no for 026291800001191')`,
      [payload],
    );
    await stack.sendRaw('{"type":"payout.direct_transfer","data":', 'con-broken');
    await eventually(() => stack.dlq.length > 0 || undefined, { what: 'a dead letter' });
    await page.click('a[data-nav=dead-letters]');
    const outbox = page.locator('#dead-outbox');
    await outbox.getByText('payout/default/con_dead_1:9').waitFor();
    assert.ok(!(await outbox.innerText()).includes('026291800001191'), 'the error is scrubbed');
    await page.locator('#dead-commands').getByText('malformed_json').waitFor();
    await shot('dead-letters');
    await outbox.getByText('Replay…').click();
    await page.click('#confirm-ok');
    await outbox.getByText('Replayed.').waitFor();
    await eventually(() => stack.events.find((e) => e.id === 'con_dead_1:9'), { what: 'the replayed event' });
  });

  it('the dead-letter lists page newest first by cursor, for any role, and refuse a bad cursor', async () => {
    await stack.sql(
      `INSERT INTO dead_letter (topic, partition, "offset", reason, detail)
       SELECT 'payouts.commands', 5, 'p' || g, 'schema_violation', '{"detail":"data.amount","type":"payout.direct_transfer"}'::jsonb
         FROM generate_series(1, 5) g`,
    );
    const get = async (path: string) => {
      const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${VERA}` } });
      return {
        status: res.status,
        body: (await res.json()) as { items: Array<Record<string, unknown>>; nextCursor: string | null },
      };
    };
    const seen: unknown[] = [];
    let cursor: string | null = '';
    for (let pages = 0; cursor !== null; pages++) {
      assert.ok(pages < 10);
      const r = await get(`/ops/dead-letters?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200);
      assert.ok(r.body.items.length <= 2);
      seen.push(...r.body.items.map((i) => Number(i['id'])));
      cursor = r.body.nextCursor;
    }
    assert.ok(seen.length >= 6, 'the five rows and the malformed command');
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => Number(b) - Number(a)),
      'newest first, no repeat',
    );
    assert.equal(new Set(seen).size, seen.length);
    assert.equal((await get('/ops/dead-letters?cursor=abc')).status, 400);
    assert.equal((await get('/ops/outbox/dead?limit=0')).status, 400);
    assert.equal((await get('/ops/outbox/dead')).status, 200);
  });

  it('four eyes: Alice proposes a settlement, cannot approve it; Bob approves; the payout moves', async () => {
    await page.goto(`${url}/console#/payout/${ACCOUNT}/con_wd_1`);
    await page.locator('#propose').waitFor();
    await page.selectOption('#propose-outcome', 'SUCCESS');
    await page.fill('#propose-utr', 'UTR123456789');
    await page.fill('#propose-note', 'bank statement of 24 Nov shows the credit');
    await page.click('#propose button[type=submit]');
    await page.click('#confirm-ok');
    await page.locator('#four-eyes-result').getByText('is open: waiting for an approver').waitFor();
    await page.locator('#open-proposal').getByText('may not decide').waitFor();

    await page.click('#sign-out');
    await page.fill('#token', BOB);
    await page.click('button[type=submit]');
    await page.locator('#who').getByText('bob (approver)').waitFor();
    await page.click('a[data-nav=proposals]');
    const open = page.locator('#proposals tr', { hasText: 'con_wd_1' });
    await open.getByText('UTR123456789').waitFor();
    await open.getByText('alice').waitFor();
    await open.locator('a').click();
    await page.locator('#open-proposal button.approve').waitFor();
    await shot('four-eyes');
    await page.click('#open-proposal button.approve');
    await page.click('#confirm-ok');
    await page.locator('#four-eyes-result').getByText('is approved').waitFor();
    const settled = await stack.waitForStatus('con_wd_1', 'SUCCESS');
    assert.equal(settled.data.reason, 'settled_by_operator');
    await page.locator('#payout-fields').getByText('SUCCESS').waitFor();
    const row = page.locator('#timeline-table tr', { hasText: 'settled_by_operator' });
    await row.getByText('approved by bob').waitFor();
  });

  it('a beneficiary change takes two people: Alice proposes a registration (masked, what was typed leaves the page), Bob approves it, then proposes a removal he cannot approve himself', async () => {
    const signIn = async (token: string, who: string) => {
      if (await page.locator('#sign-out').isVisible()) await page.click('#sign-out');
      await page.locator('[data-view=login]').waitFor();
      await page.fill('#token', token);
      await page.click('button[type=submit]');
      await page.locator('#who').getByText(who).waitFor();
      await page.click('a[data-nav=beneficiaries]');
    };
    await signIn(ALICE, 'alice (operator)');
    const form = page.locator('#bene-create');
    await form.locator('input[name=beneId]').fill('CONBENE1');
    await form.locator('input[name=name]').fill('Asha Rao');
    await form.locator('input[name=bankAccount]').fill('026291800001191');
    await form.locator('input[name=ifsc]').fill('YESB0000262');
    await form.locator('input[name=email]').fill('asha.rao@example.com');
    await form.locator('input[name=phone]').fill('9876543210');
    await form.locator('input[name=address1]').fill('12 MG Road');
    await form.locator('button[type=submit]').click();
    await page.click('#confirm-ok');
    await page.locator('#bene-made').getByText('Another person approves it').waitFor();
    await page.locator('#bene-made').getByText('XXXXXXXXXXX1191').waitFor();
    assert.equal(
      await form.locator('input[name=bankAccount]').inputValue(),
      '',
      'the typed number is cleared',
    );
    const waiting = page.locator('#bene-proposals tr', { hasText: 'CONBENE1' });
    await waiting.getByText('waiting for an approver').waitFor();

    await signIn(BOB, 'bob (approver)');
    await shot('beneficiary-proposals');
    await page.locator('#bene-proposals tr', { hasText: 'CONBENE1' }).locator('button.approve').click();
    await page.click('#confirm-ok');
    await page.locator('#bene-proposal-result').getByText('is approved (created)').waitFor();
    await page.locator('#bene-lookup input[name=beneId]').fill('CONBENE1');
    await page.locator('#bene-lookup button[type=submit]').click();
    await page.locator('#bene-found').getByText('Found.').waitFor();
    await page.locator('#bene-found [data-field=phone]').getByText('********10').waitFor();
    const text = await page.locator('main').innerText();
    for (const full of ['026291800001191', '9876543210', 'asha.rao@example.com'])
      assert.ok(!text.includes(full), 'no personal data in full on the page');
    await page.click('#bene-delete');
    await page.click('#confirm-ok');
    await page.locator('#bene-found').getByText('Another person approves it').waitFor();
    await page
      .locator('#bene-proposals tr', { hasText: 'remove CONBENE1' })
      .getByText('yours: another person decides')
      .waitFor();
    await shot('beneficiaries');
    const [row] = await stack.sql<{ proposed_by: string; decided_by: string; result: string }>(
      `SELECT proposed_by, decided_by, result FROM beneficiary_proposal WHERE bene_id = 'CONBENE1' AND change = 'create'`,
    );
    assert.deepEqual(row, { proposed_by: 'alice', decided_by: 'bob', result: 'created' });
  });

  it('a viewer reads but is offered no action; signing out forgets the token', async () => {
    await page.click('#sign-out');
    await page.locator('[data-view=login]').waitFor();
    assert.equal(await page.evaluate("sessionStorage.getItem('payouts-console-token')"), null);
    await page.fill('#token', VERA);
    await page.click('button[type=submit]');
    await page.locator('#who').getByText('vera (viewer)').waitFor();
    await page.goto(`${url}/console#/payout/${ACCOUNT}/con_html_1`);
    await page.locator('#four-eyes').getByText('may not propose').waitFor();
    assert.equal(await page.locator('#recheck').isDisabled(), true);
    await stack.sql(
      `INSERT INTO outbox (message_key, event_id, event_type, topic, payload, state, attempts)
       VALUES ('payout/default/con_dead_2', 'payout/default/con_dead_2:4', 'payouts.payout.failed',
               'payouts.events', '{}'::jsonb, 'dead', 15)`,
    );
    await page.click('a[data-nav=dead-letters]');
    await page.locator('#dead-outbox button.replay').first().waitFor();
    assert.equal(await page.locator('#dead-outbox button.replay').first().isDisabled(), true);
    await page.click('#sign-out');
    assert.equal(await page.evaluate("sessionStorage.getItem('payouts-console-token')"), null);
  });
});
