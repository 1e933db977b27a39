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
const ALICE = 'console-approval-alice-0123456789abcdef';
const BOB = 'console-approval-bob-0123456789abcdef00';
const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');
const ACCOUNT = 'default';
/** `CONSOLE_SCREENSHOTS=docs/console` saves the views there (not on every run). */
const SHOTS = process.env['CONSOLE_SCREENSHOTS'];

const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing: scripts/test.sh installs Debian's chromium as root (ensure_chromium); install it to run the browser test`;

// Approval before sending (issue 30) in the web console, in a real browser: the list of payouts
// waiting for approval, approve and reject, and the provider's own approval shown as what it is.
describe('web console: approvals (chromium)', { skip }, () => {
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
  const standard = (transferId: string, amount: string) => ({
    type: 'payout.standard_transfer',
    data: { transferId, beneId: 'CONAPB1', amount, transferMode: 'imps' },
  });
  const initiations = async (id: string) =>
    ((await stack.sandboxCall('GET', `/__sandbox/received?transferId=${id}`)) as { initiations: unknown[] })
      .initiations.length;

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
        OPS_OPERATORS: `alice:approver:${sha256(ALICE)},bob:approver:${sha256(BOB)}`,
        APPROVAL_POLICIES: JSON.stringify([
          { accountId: ACCOUNT, rules: [{ rule: 'amount_at_least', amount: '1000.00' }] },
        ]),
      },
    });
    url = (await stack.startService()).url;
    await stack.registerBeneficiary({
      beneId: 'CONAPB1',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
    });
    context = await browser;
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
  });

  after(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
    await stack?.close();
  });

  it('lists the payouts waiting for approval with the rule that caught them; approve sends one, reject ends the other', async () => {
    await stack.send(standard('con_ap_1', '2500.00'));
    await stack.send(standard('con_ap_2', '1800.00'));
    await stack.waitForStatus('con_ap_1', 'AWAITING_APPROVAL');
    await stack.waitForStatus('con_ap_2', 'AWAITING_APPROVAL');

    await page.goto(`${url}/console`);
    await page.fill('#token', ALICE);
    await page.click('button[type=submit]');
    await page.locator('[data-view=queue]').waitFor();
    await page.click('#nav a[data-nav=approvals]');
    const table = page.locator('#approvals-table');
    await table.getByText('con_ap_1').waitFor();
    await table.getByText('con_ap_2').waitFor();
    assert.ok((await table.innerText()).includes('amount 2500.00 >= 1000.00'));
    await shot('approvals');

    const row1 = table.locator('tr', { hasText: 'con_ap_1' });
    await row1.getByRole('button', { name: 'Approve…' }).click();
    await page.locator('#confirm[open]').waitFor();
    assert.match(await page.locator('#confirm-text').innerText(), /sent to the provider now/);
    await page.click('#confirm-ok');
    // The page shows the answer, then lists again (the notice goes with it): the ledger says it all.
    await stack.waitForStatus('con_ap_1', 'SUCCESS');
    await page.locator('#approvals-table tr', { hasText: 'con_ap_1' }).waitFor({ state: 'detached' });

    const row2 = page.locator('#approvals-table tr', { hasText: 'con_ap_2' });
    await row2.getByRole('button', { name: 'Reject…' }).click();
    await page.locator('#confirm[open]').waitFor();
    await page.click('#confirm-ok');
    const rejected = await stack.waitForStatus('con_ap_2', 'REJECTED');
    assert.equal(rejected.data.reason, 'approval_rejected');
    assert.equal(await initiations('con_ap_2'), 0, 'the provider never saw the rejected one');
    await page.locator('#approvals').getByText('Nothing waits for approval.').waitFor();

    // The approved payout's page and timeline name who decided.
    await page.goto(`${url}/console#/payout/${ACCOUNT}/con_ap_1`);
    await page.locator('#payout-fields').getByText('SUCCESS').waitFor();
    await page.getByText('AWAITING_APPROVAL').first().waitFor();
    assert.ok((await page.locator('main').innerText()).includes('alice'));
  });

  it("shows a payout waiting in the provider's dashboard as that, not as this service's approval", async () => {
    await stack.sql(
      `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, version, attempt, sub_state)
       VALUES ($1, 'con_prov_ap', 'standard_transfer', 'test-hash', '{}'::jsonb, '12.00', 'PENDING', 3, 1, 'approval_pending')`,
      [ACCOUNT],
    );
    await page.goto(`${url}/console#/payout/${ACCOUNT}/con_prov_ap`);
    const fields = page.locator('#payout-fields');
    await fields.getByText('PENDING').first().waitFor();
    assert.match(
      await fields.innerText(),
      /approval_pending: waiting for approval in the provider's dashboard/,
    );
    await shot('provider-approval-pending');
  });
});
