import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startStack, type Stack } from '#test-support';

const CHROMIUM = '/usr/bin/chromium';
const VERA = 'console-funds-vera-0123456789abcdef00';
const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');
/** `CONSOLE_SCREENSHOTS=docs/console` saves the view there (not on every run). */
const SHOTS = process.env['CONSOLE_SCREENSHOTS'];

const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing: scripts/test.sh installs Debian's chromium as root (ensure_chromium); install it to run the browser test`;

// Issue 32, "what we have committed", in the web console: a card per provider account.
describe('web console: funds (chromium)', { skip }, () => {
  let stack: Stack;
  let url: string;
  let context: BrowserContext;
  let profile: string;
  let page: Page;

  before(async () => {
    profile = await mkdtemp(join(tmpdir(), 'console-chromium-'));
    const browser = chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
        '--disable-sync',
      ],
      viewport: { width: 1400, height: 860 },
      timeout: 30_000,
    });
    stack = await startStack({
      env: {
        OPS_OPERATORS: `vera:viewer:${sha256(VERA)}`,
        // Nothing here may move a row: no executor, no reconciler.
        SERVICE_ROLES: 'queries',
        PROVIDER_ACCOUNTS: JSON.stringify([
          { accountId: 'acc2', clientId: 'acc2_client_id', clientSecret: 'acc2_client_secret' },
        ]),
      },
    });
    for (const [id, status, amount] of [
      ['cf_pend', 'PENDING', '12.34'],
      ['cf_unk', 'UNKNOWN', '0.66'],
      ['cf_recv', 'RECEIVED', '5.00'],
      ['cf_succ', 'SUCCESS', '70.00'],
    ])
      await stack.sql(
        `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status)
         VALUES ('default', $1, 'standard_transfer', 'h', '{}', $2, $3)`,
        [id, amount, status],
      );
    url = (await stack.startService()).url;
    context = await browser;
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
  });

  after(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
    await stack?.close();
  });

  it('a card per account: sent and not settled, waiting, and the balance not read yet', async () => {
    await page.goto(`${url}/console`);
    await page.fill('#token', VERA);
    await page.click('button[type=submit]');
    await page.locator('[data-view=queue]').waitFor();
    await page.click('#nav a[data-nav=funds]');
    const card = page.locator('.funds-card[data-account=default]');
    await card.waitFor();
    assert.equal(await card.locator('[data-field=in-flight]').innerText(), '13.00 (2 payouts)');
    assert.equal(await card.locator('[data-field=waiting]').innerText(), '5.00 (1 payout)');
    assert.equal(await card.locator('[data-field=queued]').innerText(), '5.00 (1 payout)');
    assert.equal(await card.locator('[data-field=awaiting-approval]').innerText(), '0.00 (0 payouts)');
    assert.equal(await card.locator('[data-field=balance]').innerText(), 'not read yet');
    const other = page.locator('.funds-card[data-account=acc2]');
    assert.equal(await other.locator('[data-field=in-flight]').innerText(), '0.00 (0 payouts)');
    if (SHOTS) {
      await mkdir(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'funds.png'), fullPage: true });
    }
  });
});
