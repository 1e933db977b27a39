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
const OSCAR = 'console-funds-oscar-0123456789abcdef0';
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
        OPS_OPERATORS: `vera:viewer:${sha256(VERA)},oscar:operator:${sha256(OSCAR)}`,
        // Nothing here may move a row: no executor, no reconciler.
        SERVICE_ROLES: 'queries',
        PROVIDER_ACCOUNTS: JSON.stringify([
          { accountId: 'acc2', clientId: 'acc2_client_id', clientSecret: 'acc2_client_secret' },
        ]),
        FUNDS_HOLD: JSON.stringify([
          { accountId: 'default', threshold: '5000.00', fee: '5.90', maxHold: '96h' },
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
    // Held for funds (ADR 0027): a payout for 3 hours, a batch of two entries for 1 hour.
    await stack.sql(
      `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, held_since, reason)
       VALUES ('default', 'cf_held', 'standard_transfer', 'h', '{}', 7.50, 'HELD_FOR_FUNDS',
               now() - interval '3 hours', 'insufficient_funds')`,
    );
    const [b] = await stack.sql<{ id: string }>(
      `INSERT INTO batch (account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount, status,
                          held_since, reason)
       VALUES ('default', 'cf_batch', 'BANK_ACCOUNT', 'h', 2, 3.00, 'HELD_FOR_FUNDS', now() - interval '1 hour',
               'no_balance_reading') RETURNING id`,
    );
    for (const [i, amount] of ['1.00', '2.00'].entries())
      await stack.sql(
        `INSERT INTO batch_item (batch_id, transfer_id, position, amount, entry, status)
         VALUES ($1, $2, $3, $4, '{}', 'RECEIVED')`,
        [b!.id, `cf_batch_${i}`, i, amount],
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

  it('a card per account: sent and not settled, waiting (held for funds among it), holding on or off, the balance not read yet, and the held payouts', async () => {
    await page.goto(`${url}/console`);
    await page.fill('#token', VERA);
    await page.click('button[type=submit]');
    await page.locator('[data-view=queue]').waitFor();
    await page.click('#nav a[data-nav=funds]');
    const card = page.locator('.funds-card[data-account=default]');
    await card.waitFor();
    assert.equal(await card.locator('[data-field=in-flight]').innerText(), '13.00 (2 payouts)');
    assert.equal(await card.locator('[data-field=waiting]').innerText(), '15.50 (4 payouts)');
    assert.equal(await card.locator('[data-field=queued]').innerText(), '5.00 (1 payout)');
    assert.equal(await card.locator('[data-field=awaiting-approval]').innerText(), '0.00 (0 payouts)');
    assert.equal(await card.locator('[data-field=held-for-funds]').innerText(), '10.50 (3 payouts)');
    assert.match(await card.locator('[data-field=held-oldest]').innerText(), /^3h \(since \d{4}-\d\d-\d\d /);
    assert.equal(
      await card.locator('[data-field=hold]').innerText(),
      'on: keeps 5000.00 back, counts 5.90 a transfer in fees, rejected after 4d',
    );
    assert.equal(await card.locator('[data-field=balance]').innerText(), 'not read yet');
    const other = page.locator('.funds-card[data-account=acc2]');
    assert.equal(await other.locator('[data-field=in-flight]').innerText(), '0.00 (0 payouts)');
    assert.equal(await other.locator('[data-field=held-oldest]').innerText(), 'nothing held');
    assert.equal(await other.locator('[data-field=hold]').innerText(), 'off');
    // The held payouts of the account that has some, oldest first; none listed for acc2.
    const held = page.locator('section.held[data-account=default] table tbody tr');
    assert.equal(await held.count(), 2);
    const cells = async (i: number) => (await held.nth(i).locator('td').allInnerTexts()).map((t) => t.trim());
    const [p, bt] = [await cells(0), await cells(1)];
    assert.equal(p[0], 'cf_held');
    assert.equal(p[1], '7.50');
    assert.equal(p[3], '3h');
    assert.equal(p[4], 'insufficient_funds: the available balance has no room for it');
    assert.equal(bt[0], 'cf_batch (batch, 2 entries)');
    assert.equal(bt[1], '3.00');
    assert.equal(bt[3], '1h');
    assert.equal(bt[4], 'no_balance_reading: no balance reading of the account yet');
    assert.equal(
      await held.nth(0).locator('a').getAttribute('href'),
      '#/payout/default/cf_held',
      'a held payout opens its page',
    );
    assert.equal(await page.locator('section.held[data-account=acc2]').count(), 0);
    // 3 held (a payout, a batch of 2), all shown; a viewer may not cancel.
    assert.doesNotMatch(await page.locator('section.held[data-account=default] p').innerText(), /shown/);
    assert.equal(await page.locator('button.cancel-hold').count(), 0);
    if (SHOTS) {
      await mkdir(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'funds.png'), fullPage: true });
    }
  });

  it('an operator cancels a held payout after a confirmation: it ends REJECTED and leaves the list', async () => {
    await page.click('#sign-out');
    await page.locator('[data-view=login]').waitFor();
    await page.fill('#token', OSCAR);
    await page.click('button[type=submit]');
    await page.locator('#who').getByText('oscar (operator)').waitFor();
    // The account is read now (after the batch was held for want of a reading): its recorded
    // reason is from when it was held, and the list says so.
    await stack.sql(
      `INSERT INTO balance_reading (account_id, available, ledger, read_at) VALUES ('default', 2.00, 2.00, now())`,
    );
    await page.click('#nav a[data-nav=funds]');
    const rows = page.locator('section.held[data-account=default] table tbody tr');
    await rows.first().waitFor();
    assert.equal(
      (await rows.nth(1).locator('td').nth(4).innerText()).trim(),
      'no_balance_reading: no balance reading of the account yet (when held; read since, still no room)',
    );
    // Only a payout has Cancel… (a batch is not cancelled here).
    assert.equal(await rows.nth(0).locator('button.cancel-hold').count(), 1);
    assert.equal(await rows.nth(1).locator('button.cancel-hold').count(), 0);
    await rows.nth(0).locator('button.cancel-hold').click();
    await page.click('#confirm-ok');
    await page.locator('#funds-result').getByText('cf_held cancelled: it is REJECTED.').waitFor();
    const [row] = await stack.sql<{ status: string; reason: string }>(
      `SELECT status, reason FROM payout WHERE transfer_id = 'cf_held'`,
    );
    assert.deepEqual(row, { status: 'REJECTED', reason: 'cancelled_while_held' });
    // The page reads again: the batch is all that is held.
    await page
      .locator('.funds-card[data-account=default] [data-field=held-for-funds]')
      .getByText('3.00 (2 payouts)')
      .waitFor();
    assert.equal(await rows.count(), 1);
  });
});
