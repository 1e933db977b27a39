import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, postV1, postV2, signV1, signV2, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import {
  ACCOUNT,
  directTransfer,
  distinctEvents,
  keptWebhooks,
  metric,
  statusCalls,
  statusesOf,
} from './helpers.js';

// Provider webhooks as verified hints (ADR 0013), with real Postgres, Kafka and sandbox. The
// reconciler's first check is 30 s away and the reversal watch is off, so any status call in
// this file would be one a webhook caused: the tests count them and expect none.
describe('provider webhooks', () => {
  let stack: Stack;
  let service: ServiceApp;
  let v1: string;
  let v2: string;
  const secret = () => stack.sandbox.clientSecret;

  before(async () => {
    stack = await startStack({
      env: {
        SERVICE_ROLES: 'intake,executor,reconciler,relay,webhooks',
        WEBHOOKS_PORT: '0',
        RECONCILE_SCHEDULE: '30s,1m',
        REVERSAL_WATCH_SCHEDULE: 'off',
        WEBHOOKS_RETRY_MS: '100',
        WEBHOOKS_POLL_MS: '200',
        WEBHOOKS_REPLAY_WINDOW_MS: '60000',
        WEBHOOKS_UNMATCHED_RETRY_MS: '300',
      },
    });
    service = await stack.startService();
    assert.ok(service.webhooksUrl, 'the webhooks role opens its listener');
    v1 = `${service.webhooksUrl}/webhooks/v1/${ACCOUNT}`;
    v2 = `${service.webhooksUrl}/webhooks/v2/${ACCOUNT}`;
  });
  after(async () => {
    await stack?.close();
  });

  async function pending(transferId: string, amount = '10.00'): Promise<number> {
    await stack.send(directTransfer(transferId, amount));
    const p = await stack.waitForStatus(transferId, 'PENDING');
    return p.data.version;
  }

  it('a pending transfer settles within a second of its webhook, with no status call', async () => {
    const calls = await statusCalls(service.url);
    await pending('wh_fast', '12.50');
    const status = await postV2(
      v2,
      signV2(
        {
          type: 'TRANSFER_SUCCESS',
          data: { transferId: 'wh_fast', utr: 'UTR777', status: 'SUCCESS', amount: 12.5, acknowledged: 0 },
        },
        secret(),
      ),
    );
    assert.equal(status, 200);
    const started = Date.now();
    const done = await stack.waitForStatus('wh_fast', 'SUCCESS', 1_000);
    assert.ok(Date.now() - started <= 1_000);
    assert.equal(done.data.utr, 'UTR777');
    assert.deepEqual(statusesOf(stack, 'wh_fast'), ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS']);
    assert.equal(await statusCalls(service.url), calls, 'no status call');
    assert.deepEqual(await keptWebhooks(stack, 'wh_fast'), [
      { state: 'done', outcome: 'applied', event: 'TRANSFER_SUCCESS' },
    ]);
    assert.equal(
      await metric(service.url, 'payouts_webhook_to_terminal_seconds_count', { to: 'SUCCESS' }),
      1,
    );
    assert.equal(
      await metric(service.url, 'payouts_webhooks_received_total', {
        version: 'v2',
        type: 'TRANSFER_SUCCESS',
        result: 'accepted',
      }),
      1,
    );
  });

  it('v1: a form-encoded TRANSFER_FAILED settles a pending transfer FAILED with its reason', async () => {
    const calls = await statusCalls(service.url);
    await pending('wh_v1fail');
    const body = signV1(
      { event: 'TRANSFER_FAILED', transferId: 'wh_v1fail', reason: 'BENEFICIARY_BANK_OFFLINE' },
      secret(),
    );
    assert.equal(await postV1(v1, body), 200);
    const failed = await stack.waitForStatus('wh_v1fail', 'FAILED', 2_000);
    assert.equal(failed.data.reason, 'BENEFICIARY_BANK_OFFLINE');
    assert.equal(await statusCalls(service.url), calls);
  });

  it('duplicated and reordered webhooks change nothing; REVERSED after SUCCESS applies', async () => {
    await pending('wh_dup');
    const success = signV2(
      {
        type: 'TRANSFER_SUCCESS',
        event_time: '2026-11-24T01:00:00.000Z',
        data: { transferId: 'wh_dup', utr: 'U1' },
      },
      secret(),
    );
    assert.equal(await postV2(v2, success), 200);
    await stack.waitForStatus('wh_dup', 'SUCCESS', 2_000);
    // The same webhook again, as delivered and as re-signed later by the provider: duplicates.
    assert.equal(await postV2(v2, success), 200);
    assert.equal(
      await postV2(
        v2,
        signV2(
          {
            type: 'TRANSFER_SUCCESS',
            event_time: '2026-11-24T01:00:00.000Z',
            data: { transferId: 'wh_dup', utr: 'U1' },
          },
          secret(),
          Date.now() + 5,
        ),
      ),
      200,
    );
    assert.equal(await metric(service.url, 'payouts_webhooks_received_total', { result: 'duplicate' }), 2);
    const reversal = signV1(
      {
        event: 'TRANSFER_REVERSED',
        transferId: 'wh_dup',
        reason: 'INVALID_ACCOUNT_FAIL',
        eventTime: '2026-11-24T01:05:00Z',
      },
      secret(),
    );
    assert.equal(await postV1(v1, reversal), 200);
    const reversed = await stack.waitForStatus('wh_dup', 'REVERSED', 2_000);
    // Late and out of order: a FAILED and an older SUCCESS (a new identity) after the reversal.
    assert.equal(
      await postV1(
        v1,
        signV1(
          { event: 'TRANSFER_FAILED', transferId: 'wh_dup', eventTime: '2026-11-24T00:59:00Z' },
          secret(),
        ),
      ),
      200,
    );
    assert.equal(
      await postV2(
        v2,
        signV2(
          {
            type: 'TRANSFER_SUCCESS',
            event_time: '2026-11-24T00:58:00.000Z',
            data: { transferId: 'wh_dup' },
          },
          secret(),
        ),
      ),
      200,
    );
    await eventually(
      async () => {
        const kept = await keptWebhooks(stack, 'wh_dup');
        return kept.length === 4 && kept.every((k) => k.state === 'done') ? kept : undefined;
      },
      { what: 'the late webhooks settled' },
    );
    const kept = await keptWebhooks(stack, 'wh_dup');
    assert.deepEqual(
      kept.map((k) => k.outcome),
      ['applied', 'applied', 'backwards', 'backwards'],
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(statusesOf(stack, 'wh_dup'), [
      'RECEIVED',
      'SUBMITTING',
      'PENDING',
      'SUCCESS',
      'REVERSED',
    ]);
    const [row] = await stack.sql<{ version: number }>('SELECT version FROM payout WHERE transfer_id = $1', [
      'wh_dup',
    ]);
    assert.equal(row?.version, reversed.data.version, 'no version moved after the reversal');
  });

  it('forged, stale and unknown-account webhooks are refused, counted and not kept', async () => {
    await pending('wh_forged');
    const good = signV2({ type: 'TRANSFER_SUCCESS', data: { transferId: 'wh_forged' } }, secret());
    const forged = { ...good, body: good.body.replace('wh_forged', 'wh_forgeD') };
    assert.equal(await postV2(v2, forged), 401, 'a changed body');
    assert.equal(
      await postV2(
        v2,
        signV2({ type: 'TRANSFER_SUCCESS', data: { transferId: 'wh_forged' } }, 'not-the-secret'),
      ),
      401,
    );
    const stale = signV2(
      { type: 'TRANSFER_SUCCESS', data: { transferId: 'wh_forged' } },
      secret(),
      Date.now() - 120_000,
    );
    assert.equal(await postV2(v2, stale), 401, 'outside the replay window');
    const noSig = signV1({ event: 'TRANSFER_SUCCESS', transferId: 'wh_forged' }, secret()).replace(
      /&signature=[^&]*/,
      '',
    );
    assert.equal(await postV1(v1, noSig), 401, 'v1 without a signature');
    const badV1 = signV1({ event: 'TRANSFER_SUCCESS', transferId: 'wh_forged' }, secret()).replace(
      'wh_forged',
      'wh_other',
    );
    assert.equal(await postV1(v1, badV1), 401, 'v1 with a changed field');
    assert.equal(await postV2(`${service.webhooksUrl}/webhooks/v2/nobody`, good), 404, 'unknown account');
    assert.equal(
      await metric(service.url, 'payouts_webhooks_received_total', {
        result: 'bad_signature',
        type: 'unverified',
      }),
      4,
    );
    assert.equal(await metric(service.url, 'payouts_webhooks_received_total', { result: 'stale' }), 1);
    assert.equal(
      await metric(service.url, 'payouts_webhooks_received_total', { result: 'unknown_account' }),
      1,
    );
    assert.deepEqual(await keptWebhooks(stack, 'wh_forged'), [], 'nothing kept');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(statusesOf(stack, 'wh_forged'), ['RECEIVED', 'SUBMITTING', 'PENDING']);
  });

  it('a webhook that arrives before the executor recorded the submit answer is not lost', async () => {
    const calls = await statusCalls(service.url);
    // The sandbox applies the transfer, then answers 10 s later (sandbox clock): the row stays
    // SUBMITTING meanwhile, with the webhook already here.
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'directTransfer',
      applyThenLatencyMs: 10_000,
      times: 1,
    });
    await stack.send(directTransfer('wh_early'));
    await stack.waitForStatus('wh_early', 'SUBMITTING');
    assert.equal(
      await postV2(
        v2,
        signV2({ type: 'TRANSFER_SUCCESS', data: { transferId: 'wh_early', utr: 'UE' } }, secret()),
      ),
      200,
    );
    await eventually(
      async () => ((await keptWebhooks(stack, 'wh_early'))[0]?.state === 'waiting' ? true : undefined),
      { what: 'the webhook waiting for its payout' },
    );
    await stack.sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 11 });
    const done = await stack.waitForStatus('wh_early', 'SUCCESS', 5_000);
    assert.equal(done.data.utr, 'UE');
    assert.deepEqual(statusesOf(stack, 'wh_early'), ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS']);
    assert.equal(await statusCalls(service.url), calls);
  });

  it('a webhook for an unknown transferId is kept and counted, and matched once the payout appears', async () => {
    const before = await metric(service.url, 'payouts_webhooks_unmatched_total');
    assert.equal(
      await postV2(
        v2,
        signV2({ type: 'TRANSFER_SUCCESS', data: { transferId: 'wh_nobody', utr: 'UN' } }, secret()),
      ),
      200,
    );
    await eventually(
      async () => ((await keptWebhooks(stack, 'wh_nobody'))[0]?.state === 'unmatched' ? true : undefined),
      { what: 'the unmatched webhook' },
    );
    assert.equal(await metric(service.url, 'payouts_webhooks_unmatched_total'), before + 1);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await keptWebhooks(stack, 'wh_nobody'))[0]?.state, 'unmatched', 'kept, not dropped');
    assert.equal(await metric(service.url, 'payouts_webhooks_unmatched_total'), before + 1, 'counted once');
    // The payout appears (say, a command that was late): the kept webhook settles it.
    await stack.send(directTransfer('wh_nobody'));
    const done = await stack.waitForStatus('wh_nobody', 'SUCCESS', 5_000);
    assert.equal(done.data.utr, 'UN');
    assert.equal((await keptWebhooks(stack, 'wh_nobody'))[0]?.outcome, 'applied');
  });

  it('LOW_BALANCE_ALERT and BENEFICIARY_INCIDENT become events and metrics, with no free text', async () => {
    const low = signV1(
      { event: 'LOW_BALANCE_ALERT', reason: 'Balance 120.00 below 1000.00 for A Person 026291800001191' },
      secret(),
    );
    assert.equal(await postV1(v1, low), 200);
    assert.equal(
      await postV1(v1, signV1({ event: 'BENEFICIARY_INCIDENT', transferId: 'wh_fast' }, secret())),
      200,
    );
    const notice = await eventually(() =>
      stack.events.find((e) => e.type === 'payouts.provider.low_balance'),
    );
    assert.equal(notice.data.accountId, ACCOUNT);
    assert.equal(notice.data.status, 'LOW_BALANCE_ALERT');
    assert.doesNotMatch(JSON.stringify(notice), /026291800001191|A Person|Balance/);
    await eventually(() => stack.events.find((e) => e.type === 'payouts.provider.beneficiary_incident'));
    assert.equal(await metric(service.url, 'payouts_provider_notices_total', { type: 'low_balance' }), 1);
    assert.equal(
      await metric(service.url, 'payouts_provider_notices_total', { type: 'beneficiary_incident' }),
      1,
    );
    assert.equal(distinctEvents(stack, 'wh_fast').length, 4, "a notice is not one of the payout's events");
  });
});
