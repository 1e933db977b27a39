import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, postV1, postV2, signV1, signV2, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import {
  ACCOUNT,
  directTransfer,
  distinctEvents,
  keptWebhooks,
  insertPayout,
  istTime,
  metric,
  postFrom,
  statusCalls,
  statusesOf,
  v2TransferData,
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
  const PINNED_SECRET = 'pinned-account-client-secret';

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
        WEBHOOKS_REOPEN_LIMIT: '1',
        WEBHOOKS_REFUSALS_PER_SOURCE: '10',
        // A second account, a merchant of its own (accounts never share a secret, the webhook
        // key: issue 30), its webhook version pinned to v2.
        PROVIDER_ACCOUNTS: JSON.stringify([
          {
            accountId: 'pinned',
            clientId: 'pinned_client_id',
            clientSecret: PINNED_SECRET,
            webhookVersion: 'v2',
          },
        ]),
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

  /**
   * The payout as sent on v2, the generation of the v2 webhooks below (the stack's account sends on
   * v1): a v2 webhook binds to a row sent on v1 only by the provider's id (issue 29), which these
   * hand-made webhooks do not carry. Only the row's generation changes; nothing is asked before
   * the reconciler's first check, 30 s away.
   */
  const onV2 = (transferId: string) =>
    stack.sql(`UPDATE payout SET provider_api = 'v2' WHERE transfer_id = $1`, [transferId]);

  async function pending(transferId: string, amount = '10.00', api: 'v1' | 'v2' = 'v2'): Promise<number> {
    await stack.send(directTransfer(transferId, amount));
    const p = await stack.waitForStatus(transferId, 'PENDING');
    if (api === 'v2') await onV2(transferId);
    return p.data.version;
  }

  it("a pending transfer settles within a second of its webhook in the provider's v2 shape, with no status call", async () => {
    const calls = await statusCalls(service.url);
    await pending('wh_fast', '12.50');
    const status = await postV2(
      v2,
      signV2(
        {
          type: 'TRANSFER_SUCCESS',
          event_time: istTime(),
          data: v2TransferData('wh_fast', { transfer_utr: 'UTR777', transfer_amount: 12.5 }),
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
    // The provider's id is kept where the service keeps it, and its status code with it.
    assert.deepEqual(
      await stack.sql('SELECT svc_transfer_id, status_code FROM payout WHERE transfer_id = $1', ['wh_fast']),
      [{ svc_transfer_id: '1512355', status_code: 'SENT_TO_BENEFICIARY' }],
    );
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

  it("v2: a cf_transfer_id that is not the payout's provider id only asks: checked now, left PENDING", async () => {
    await pending('wh_cfid');
    await stack.sql(`UPDATE payout SET svc_transfer_id = '700001' WHERE transfer_id = $1`, ['wh_cfid']);
    const calls = await statusCalls(service.url);
    const signed = signV2(
      {
        type: 'TRANSFER_SUCCESS',
        event_time: istTime(),
        data: v2TransferData('wh_cfid', { cf_transfer_id: '700002' }),
      },
      secret(),
    );
    assert.equal(await postV2(v2, signed), 200);
    await eventually(
      async () => ((await keptWebhooks(stack, 'wh_cfid'))[0]?.state === 'done' ? true : undefined),
      { what: 'the webhook settled' },
    );
    assert.deepEqual(await keptWebhooks(stack, 'wh_cfid'), [
      { state: 'done', outcome: 'recheck', event: 'TRANSFER_SUCCESS' },
    ]);
    await eventually(async () => ((await statusCalls(service.url)) > calls ? true : undefined), {
      what: 'a status call',
    });
    // Not applied. The row's provider id was written by hand above, so the status check the
    // webhook asked for sees the provider hold another id for this transfer: a person decides
    // (transfer_id_held_by_another_transfer, issue 29), never SUCCESS.
    await eventually(async () => (statusesOf(stack, 'wh_cfid').length >= 4 ? true : undefined), {
      what: 'the check after the webhook',
    });
    assert.deepEqual(
      statusesOf(stack, 'wh_cfid'),
      ['RECEIVED', 'SUBMITTING', 'PENDING', 'REQUIRES_ATTENTION'],
      'not applied',
    );
  });

  it('v1: a TRANSFER_FAILED only asks: the payout is checked now and stays PENDING while the provider says so', async () => {
    // The v1 signature does not bind a value to its field name (ADR 0013): a v1 webhook never
    // applies a state by itself. The sandbox still has this transfer pending.
    await pending('wh_v1fail', '10.00', 'v1');
    const calls = await statusCalls(service.url);
    const body = signV1(
      { event: 'TRANSFER_FAILED', transferId: 'wh_v1fail', reason: 'BENEFICIARY_BANK_OFFLINE' },
      secret(),
    );
    assert.equal(await postV1(v1, body), 200);
    await eventually(
      async () => ((await keptWebhooks(stack, 'wh_v1fail'))[0]?.state === 'done' ? true : undefined),
      { what: 'the v1 webhook settled' },
    );
    assert.deepEqual(await keptWebhooks(stack, 'wh_v1fail'), [
      { state: 'done', outcome: 'recheck', event: 'TRANSFER_FAILED' },
    ]);
    await eventually(async () => ((await statusCalls(service.url)) > calls ? true : undefined), {
      what: 'a status call',
    });
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(statusesOf(stack, 'wh_v1fail'), ['RECEIVED', 'SUBMITTING', 'PENDING'], 'no FAILED');
  });

  it('v1: names outside the documented set and event times out of bounds are not kept; zone-less times are India time', async () => {
    await pending('wh_v1shape', '10.00', 'v1');
    const iso = (ms: number) => new Date(ms).toISOString();
    // An empty field added to a genuine webhook: the values, concatenated, are the same, so it
    // still verifies without the secret; the name is not one the provider documents.
    const extra = `${signV1({ event: 'TRANSFER_FAILED', transferId: 'wh_v1shape' }, secret())}&referenceIdx=`;
    assert.equal(await postV1(v1, extra), 200, 'answered, so the provider does not disable us');
    const old = signV1(
      { event: 'TRANSFER_FAILED', transferId: 'wh_v1shape', eventTime: iso(Date.now() - 3 * 3_600_000) },
      secret(),
    );
    assert.equal(await postV1(v1, old), 200);
    const ahead = signV1(
      { event: 'TRANSFER_FAILED', transferId: 'wh_v1shape', eventTime: iso(Date.now() + 3_600_000) },
      secret(),
    );
    assert.equal(await postV1(v1, ahead), 200);
    assert.equal(
      await metric(service.url, 'payouts_webhooks_received_total', { result: 'unexpected_field' }),
      1,
    );
    assert.equal(await metric(service.url, 'payouts_webhooks_received_total', { result: 'untimely' }), 2);
    assert.deepEqual(await keptWebhooks(stack, 'wh_v1shape'), [], 'nothing kept');
    // `2026-11-24 13:39:25` with no zone is India time (UTC+05:30), as the provider's other dates.
    const ist = new Date(Date.now() + 330 * 60_000 - 60_000).toISOString().slice(0, 19).replace('T', ' ');
    const zoneless = signV1(
      { event: 'TRANSFER_ACKNOWLEDGED', transferId: 'wh_v1shape', eventTime: ist },
      secret(),
    );
    assert.equal(await postV1(v1, zoneless), 200);
    const [kept] = await stack.sql<{ event_time: Date }>(
      'SELECT event_time FROM provider_webhook WHERE transfer_id = $1',
      ['wh_v1shape'],
    );
    assert.ok(kept, 'the zone-less one is kept');
    assert.ok(Math.abs(kept.event_time.getTime() - (Date.now() - 60_000)) < 5_000, 'read as +05:30');
  });

  it('duplicated and reordered webhooks change nothing; a v2 REVERSED after SUCCESS applies', async () => {
    await pending('wh_dup');
    const t0 = Date.now() - 600_000;
    const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
    const success = signV2(
      {
        type: 'TRANSFER_SUCCESS',
        event_time: at(2),
        data: { transfer_id: 'wh_dup', transfer_utr: 'U1' },
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
            event_time: at(2),
            data: { transfer_id: 'wh_dup', transfer_utr: 'U1' },
          },
          secret(),
          Date.now() + 5,
        ),
      ),
      200,
    );
    assert.equal(await metric(service.url, 'payouts_webhooks_received_total', { result: 'duplicate' }), 2);
    const reversal = signV2(
      {
        type: 'TRANSFER_REVERSED',
        event_time: at(7),
        data: { transfer_id: 'wh_dup', status_description: 'INVALID_ACCOUNT_FAIL' },
      },
      secret(),
    );
    assert.equal(await postV2(v2, reversal), 200);
    const reversed = await stack.waitForStatus('wh_dup', 'REVERSED', 2_000);
    // Late and out of order: a FAILED and an older SUCCESS (a new identity) after the reversal.
    assert.equal(
      await postV1(
        v1,
        signV1({ event: 'TRANSFER_FAILED', transferId: 'wh_dup', eventTime: at(1) }, secret()),
      ),
      200,
    );
    assert.equal(
      await postV2(
        v2,
        signV2(
          {
            type: 'TRANSFER_SUCCESS',
            event_time: at(0),
            data: { transfer_id: 'wh_dup' },
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
    // A SUCCESS after REVERSED contradicts a negative state (issue 29): never applied, the payout
    // is checked now. The sandbox never settled it (only this test's webhooks did), so its status
    // endpoint says PENDING: a contradiction is recorded, the REVERSED is not rewritten.
    assert.deepEqual(
      kept.map((k) => k.outcome),
      ['applied', 'applied', 'backwards', 'contradiction_check'],
    );
    const contradicted = await eventually(
      () => stack.eventsOf('wh_dup').find((e) => e.type === 'payouts.payout.contradicted'),
      { what: 'the status check confirms the contradiction' },
    );
    assert.equal(contradicted.data.status, 'REVERSED');
    assert.equal(contradicted.data.contradiction?.kind, 'pending_after_failure');
    await new Promise((r) => setTimeout(r, 300));
    const seen = new Set<string>();
    const states = stack
      .eventsOf('wh_dup')
      .filter((e) => e.type !== 'payouts.payout.contradicted' && !seen.has(e.id) && Boolean(seen.add(e.id)))
      .map((e) => e.data.status);
    assert.deepEqual(states, ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS', 'REVERSED']);
    const [row] = await stack.sql<{ version: number }>('SELECT version FROM payout WHERE transfer_id = $1', [
      'wh_dup',
    ]);
    assert.equal(row?.version, reversed.data.version, 'no version moved after the reversal');
  });

  it('forged, stale and unknown-account webhooks are refused, counted and not kept', async () => {
    await pending('wh_forged');
    const good = signV2({ type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_forged' } }, secret());
    const forged = { ...good, body: good.body.replace('wh_forged', 'wh_forgeD') };
    assert.equal(await postV2(v2, forged), 401, 'a changed body');
    assert.equal(
      await postV2(
        v2,
        signV2({ type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_forged' } }, 'not-the-secret'),
      ),
      401,
    );
    const stale = signV2(
      { type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_forged' } },
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
    await onV2('wh_early');
    assert.equal(
      await postV2(
        v2,
        signV2({ type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_early', transfer_utr: 'UE' } }, secret()),
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
        signV2(
          { type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_nobody', transfer_utr: 'UN' } },
          secret(),
        ),
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
    // The payout appears (say, a command that was late): the kept webhook settles it. Its answer
    // is held (sandbox clock) while it is marked as sent on v2, as wh_early above.
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'directTransfer',
      applyThenLatencyMs: 10_000,
      times: 1,
    });
    await stack.send(directTransfer('wh_nobody'));
    await stack.waitForStatus('wh_nobody', 'SUBMITTING');
    await onV2('wh_nobody');
    await stack.sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 11 });
    const done = await stack.waitForStatus('wh_nobody', 'SUCCESS', 5_000);
    assert.equal(done.data.utr, 'UN');
    assert.equal((await keptWebhooks(stack, 'wh_nobody'))[0]?.outcome, 'applied');
  });

  it('v2: x-webhook-timestamp in seconds or in milliseconds, each held to the replay window', async () => {
    await pending('wh_secs');
    const body = { type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_secs', transfer_utr: 'US' } };
    const inSeconds = signV2(body, secret(), Math.floor(Date.now() / 1000));
    assert.match(inSeconds.headers['x-webhook-timestamp'] ?? '', /^\d{10}$/);
    const staleSeconds = signV2(
      { type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_secs', transfer_utr: 'OLD' } },
      secret(),
      Math.floor((Date.now() - 120_000) / 1000),
    );
    assert.equal(await postV2(v2, staleSeconds), 401, 'two minutes old, in seconds: outside the window');
    assert.equal(await postV2(v2, inSeconds), 200, 'seconds are accepted');
    const done = await stack.waitForStatus('wh_secs', 'SUCCESS', 2_000);
    assert.equal(done.data.utr, 'US');
  });

  it('account numbers in a webhook reason or status are masked before they are kept or published', async () => {
    await pending('wh_mask');
    const signed = signV2(
      {
        type: 'TRANSFER_FAILED',
        data: {
          transfer_id: 'wh_mask',
          status: 'FAILED',
          status_description: 'Account 026291800001191 of A Person is closed',
        },
      },
      secret(),
    );
    assert.equal(await postV2(v2, signed), 200);
    const failed = await stack.waitForStatus('wh_mask', 'FAILED', 2_000);
    assert.doesNotMatch(JSON.stringify(failed), /026291800001191/);
    assert.match(String(failed.data.reason), /XXXXXXXXXXX1191/);
    const kept = await stack.sql<{ fields: object }>(
      'SELECT fields FROM provider_webhook WHERE transfer_id = $1',
      ['wh_mask'],
    );
    assert.doesNotMatch(JSON.stringify(kept), /026291800001191/);
    const [row] = await stack.sql<{ reason: string }>('SELECT reason FROM payout WHERE transfer_id = $1', [
      'wh_mask',
    ]);
    assert.doesNotMatch(row?.reason ?? '', /026291800001191/);
    assert.ok(!stack.logLines.some((l) => l.includes('026291800001191')), 'not in the logs');
  });

  it('a REQUIRES_ATTENTION payout with no status endpoint is not reopened by any webhook', async () => {
    await insertPayout(stack, { transferId: 'wh_wd', kind: 'self_withdrawal', status: 'REQUIRES_ATTENTION' });
    for (const utr of ['W1', 'W2', 'W3']) {
      const signed = signV2(
        { type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_wd', transfer_utr: utr } },
        secret(),
      );
      assert.equal(await postV2(v2, signed), 200);
      assert.equal(
        await postV1(v1, signV1({ event: 'TRANSFER_FAILED', transferId: 'wh_wd', utr }, secret())),
        200,
      );
    }
    const kept = await eventually(async () => {
      const k = await keptWebhooks(stack, 'wh_wd');
      return k.length === 6 && k.every((w) => w.state === 'done') ? k : undefined;
    });
    assert.deepEqual([...new Set(kept.map((k) => k.outcome))], ['no_status_endpoint']);
    const [row] = await stack.sql<{ status: string; version: number }>(
      'SELECT status, version FROM payout WHERE transfer_id = $1',
      ['wh_wd'],
    );
    assert.deepEqual(row, { status: 'REQUIRES_ATTENTION', version: 3 }, 'no version moved');
    assert.deepEqual(statusesOf(stack, 'wh_wd'), [], 'no event');
  });

  it('webhooks reopen a REQUIRES_ATTENTION payout at most WEBHOOKS_REOPEN_LIMIT times per period', async () => {
    await pending('wh_reopen');
    // A fixture: the payout handed to a person (the reconciler would take minutes here).
    const toAttention = () =>
      stack.sql(
        `UPDATE payout SET status = 'REQUIRES_ATTENTION', next_check_at = NULL WHERE transfer_id = $1`,
        ['wh_reopen'],
      );
    await toAttention();
    const hint = (utr: string) =>
      postV2(
        v2,
        signV2({ type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_reopen', transfer_utr: utr } }, secret()),
      );
    assert.equal(await hint('R1'), 200);
    // Reopened (UNKNOWN, due now): the status check finds it still pending at the provider.
    await eventually(
      () => (statusesOf(stack, 'wh_reopen').join(',').endsWith('UNKNOWN,PENDING') ? true : undefined),
      { what: 'reopened, then checked' },
    );
    await toAttention();
    const [before] = await stack.sql<{ version: number }>(
      'SELECT version FROM payout WHERE transfer_id = $1',
      ['wh_reopen'],
    );
    assert.equal(await hint('R2'), 200);
    assert.equal(await hint('R3'), 200);
    const kept = await eventually(async () => {
      const k = await keptWebhooks(stack, 'wh_reopen');
      return k.length === 3 && k.every((w) => w.state === 'done') ? k : undefined;
    });
    assert.deepEqual(
      kept.map((k) => k.outcome),
      ['reopened', 'reopen_limited', 'reopen_limited'],
    );
    const [after] = await stack.sql<{ version: number; status: string }>(
      'SELECT version, status FROM payout WHERE transfer_id = $1',
      ['wh_reopen'],
    );
    assert.deepEqual(after, { version: before?.version, status: 'REQUIRES_ATTENTION' });
    assert.equal(await metric(service.url, 'payouts_webhook_hints_total', { outcome: 'reopen_limited' }), 2);
  });

  it('refusals are limited per source address and their warn lines sampled; verified deliveries still pass', async () => {
    await pending('wh_flood');
    const warnLines = () => stack.logLines.filter((l) => l.includes('webhook refused')).length;
    const before = warnLines();
    const forged = signV2({ type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_flood' } }, 'not-the-secret');
    const answers: Array<{ status: number; retryAfter: string | undefined }> = [];
    for (let i = 0; i < 15; i += 1)
      answers.push(await postFrom(v2, '127.0.0.2', forged.body, forged.headers));
    assert.deepEqual(
      answers.map((a) => a.status),
      [...Array<number>(10).fill(401), ...Array<number>(5).fill(429)],
    );
    assert.ok(Number(answers.at(-1)?.retryAfter) >= 1, 'Retry-After in seconds');
    // The provider, from its own address, is not held up by the attacker.
    const genuine = signV2(
      { type: 'TRANSFER_SUCCESS', data: { transfer_id: 'wh_flood', transfer_utr: 'UF' } },
      secret(),
    );
    assert.equal((await postFrom(v2, '127.0.0.1', genuine.body, genuine.headers)).status, 200);
    await stack.waitForStatus('wh_flood', 'SUCCESS', 2_000);
    assert.ok(warnLines() - before <= 1, `one sampled warn line, not ${warnLines() - before}`);
    assert.equal(await metric(service.url, 'payouts_webhooks_received_total', { result: 'rate_limited' }), 5);
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
  it('an account whose webhook version is pinned refuses the other version (404), and takes its own', async () => {
    const pinnedV1 = `${service.webhooksUrl}/webhooks/v1/pinned`;
    const pinnedV2 = `${service.webhooksUrl}/webhooks/v2/pinned`;
    const v1Body = signV1({ event: 'TRANSFER_FAILED', transferId: 'wh_pin_1', reason: 'X' }, PINNED_SECRET);
    const refused = await postFrom(pinnedV1, '127.0.0.3', v1Body, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(refused.status, 404, 'the v1 route is closed for an account pinned to v2');
    assert.equal(
      await metric(service.url, 'payouts_webhooks_received_total', { result: 'other_version' }),
      1,
    );
    const signed = signV2(
      { type: 'TRANSFER_SUCCESS', event_time: istTime(), data: v2TransferData('wh_pin_2') },
      PINNED_SECRET,
    );
    assert.equal((await postFrom(pinnedV2, '127.0.0.3', signed.body, signed.headers)).status, 200);
    // Another account's key does not verify on this account's path (issue 30, defect 6).
    const others = signV2(
      { type: 'TRANSFER_SUCCESS', event_time: istTime(), data: v2TransferData('wh_pin_4') },
      secret(),
    );
    assert.equal((await postFrom(pinnedV2, '127.0.0.3', others.body, others.headers)).status, 401);
    // The account without a pinned version still takes both.
    assert.equal(
      await postV1(v1, signV1({ event: 'TRANSFER_FAILED', transferId: 'wh_pin_3', reason: 'X' }, secret())),
      200,
    );
  });
  it("the provider's approval (a sub-state, issue 29) is PENDING approved through the ledger, an event, never a status", async () => {
    await pending('wh_approved');
    // As the hint store keeps a TRANSFER_APPROVED webhook the connector has read (its sub-state
    // `approved`); the reader's part is the connector's, this is the worker's.
    await stack.sql(
      `INSERT INTO provider_webhook (account_id, api_version, identity, event, transfer_id, fields)
       VALUES ($1, 'v2', 'approved-wh_approved', 'TRANSFER_APPROVED', 'wh_approved', $2::jsonb)`,
      [ACCOUNT, JSON.stringify({ transferId: 'wh_approved', amount: '10.00', subState: 'approved' })],
    );
    const approved = await eventually(
      async () => distinctEvents(stack, 'wh_approved').find((e) => e.data.subState === 'approved'),
      { timeoutMs: 10_000, what: 'the approved sub-state published' },
    );
    assert.equal(approved.type, 'payouts.payout.pending');
    assert.equal(approved.data.status, 'PENDING');
    assert.deepEqual(statusesOf(stack, 'wh_approved'), ['RECEIVED', 'SUBMITTING', 'PENDING', 'PENDING']);
  });
});
