import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { ACCOUNTS, directTransfer, LedgerProbe, metric, statusesOf } from './helpers.js';

/**
 * Makes the sandbox's status endpoint answer `status` for a transfer from now on: a new step in
 * its in-process record (the control API has no "say this" switch).
 */
function providerNowSays(stack: Stack, transferId: string, status: string, reason = ''): void {
  const t = stack.sandbox.world.account.transfers.get(transferId);
  if (!t) throw new Error(`the sandbox has no transfer ${transferId}`);
  const at = stack.sandbox.world.clock.now();
  // A status the provider may send but the sandbox never does (the cast is the point).
  t.steps.push({ at, status: status as (typeof t.steps)[number]['status'], statusCode: '200', reason });
}

// Status answers the ledger must not take at face value.
describe('reconciler: odd status answers', () => {
  let stack: Stack;
  let service: ServiceApp;
  let ledger: LedgerProbe;
  before(async () => {
    stack = await startStack({
      env: {
        RECONCILE_SCHEDULE: Array(30).fill('200ms').join(','),
        REVERSAL_WATCH_SCHEDULE: Array(30).fill('200ms').join(','),
      },
    });
    service = await stack.startService();
    ledger = new LedgerProbe(stack);
  });
  after(async () => {
    await ledger?.close();
    await stack?.close();
  });

  it('an answer that would move a row backwards is ignored and counted', async () => {
    await stack.send(directTransfer('ra_back', ACCOUNTS.success));
    const ok = await stack.waitForStatus('ra_back', 'SUCCESS');
    const before = await metric(service.url, 'payouts_reconciler_backwards_results_total');
    // SUCCESS is under reversal watch; the provider now claims the transfer is PENDING again.
    providerNowSays(stack, 'ra_back', 'PENDING');
    await eventually(
      async () =>
        (await metric(service.url, 'payouts_reconciler_backwards_results_total')) >= before + 2
          ? true
          : undefined,
      { timeoutMs: 10_000, what: 'backwards answers counted' },
    );
    const row = await ledger.row(ok.data.accountId, 'ra_back');
    assert.equal(row.status, 'SUCCESS');
    assert.equal(row.version, ok.data.version, 'no state change');
    assert.ok(row.nextCheckAt, 'still watched: the answer was ignored, not the payout');
    assert.deepEqual(statusesOf(stack, 'ra_back'), ['RECEIVED', 'SUBMITTING', 'SUCCESS']);
    assert.ok(
      stack.logLines.some((l) => l.includes('would move the payout backwards') && l.includes('ra_back')),
    );
    // A later, forward answer is still taken.
    providerNowSays(stack, 'ra_back', 'REVERSED', 'INVALID_ACCOUNT_FAIL');
    await stack.waitForStatus('ra_back', 'REVERSED', 10_000);
  });

  it('an unknown provider status is kept, counted and polled again', async () => {
    await stack.send(directTransfer('ra_odd', ACCOUNTS.staysPending));
    const pending = await stack.waitForStatus('ra_odd', 'PENDING');
    const before = await metric(service.url, 'payouts_reconciler_unknown_provider_status_total');
    providerNowSays(stack, 'ra_odd', 'ON_HOLD_BY_BANK');
    await eventually(
      async () =>
        (await metric(service.url, 'payouts_reconciler_unknown_provider_status_total')) >= before + 2
          ? true
          : undefined,
      { timeoutMs: 10_000, what: 'unknown statuses counted, more than once (polled again)' },
    );
    const row = await ledger.row(pending.data.accountId, 'ra_odd');
    assert.equal(row.status, 'PENDING', 'neither dropped nor guessed');
    assert.ok(row.nextCheckAt, 'polled again');
    assert.ok(
      stack.logLines.some((l) => l.includes('unknown provider status') && l.includes('ON_HOLD_BY_BANK')),
      'the raw status is reported',
    );
    providerNowSays(stack, 'ra_odd', 'SUCCESS');
    await stack.waitForStatus('ra_odd', 'SUCCESS', 10_000);
    assert.deepEqual(statusesOf(stack, 'ra_odd'), ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS']);
  });

  it('"already exists" answered with subCode 400 is checked, not taken as a failure', async () => {
    // The provider already holds the id (first used by a card payout made elsewhere): the
    // directTransfer answers 400 "Transfer Id already exists", not its documented 409.
    const auth = await fetch(`${stack.sandbox.url}/payout/v1/authorize`, {
      method: 'POST',
      headers: { 'x-client-id': stack.sandbox.clientId, 'x-client-secret': stack.sandbox.clientSecret },
    });
    const token = ((await auth.json()) as { data: { token: string } }).data.token;
    const card = await fetch(`${stack.sandbox.url}/payout/v1/cardpay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        transferId: 'ra_dup400',
        amount: '10.00',
        token: '4718610000000001',
        cardType: 'DEBIT',
        networkType: 'VISA',
      }),
    });
    assert.equal(((await card.json()) as { subCode: string }).subCode, '200');
    await stack.send(directTransfer('ra_dup400', ACCOUNTS.success));
    await stack.waitForStatus('ra_dup400', 'SUCCESS', 15_000);
    const statuses = statusesOf(stack, 'ra_dup400');
    assert.ok(!statuses.includes('FAILED'), statuses.join(', '));
    assert.ok(statuses.includes('UNKNOWN'), `checked after "already exists": ${statuses.join(', ')}`);
    const r = (await stack.sandboxCall('GET', '/__sandbox/received?transferId=ra_dup400')) as {
      initiations: Array<{ endpoint: string; answer: string }>;
    };
    assert.deepEqual(
      r.initiations.map((i) => [i.endpoint, i.answer]),
      [
        ['cardpay', '200'],
        ['directTransfer', '400'],
      ],
    );
  });
});
