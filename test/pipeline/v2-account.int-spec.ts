import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutEvent } from '#contracts';
import { eventually, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { ACCOUNT, keptWebhooks, metric, statusesOf } from '../webhooks/helpers.js';

// A provider account on the v2 API (issue 22): standard, direct and batch payouts go to Transfers
// V2, unclear outcomes are looked up by transfer_id, a duplicate is looked up, a refusal of a
// first send is final; and an account switched from v1 to v2 with payouts in flight checks each
// payout on the generation it was sent on.

const SUCCESS = { bankAccount: '026291800001191', ifsc: 'YESB0000262' } as const;
const PENDING_THEN_SUCCESS = { bankAccount: '00224412311300', ifsc: 'YESB0000001' } as const;

interface IdOutcome {
  transferId: string;
  endpoint: string;
  initiations: number;
  accepted: number;
  paid: number;
  status: string;
}

async function outcomeOf(stack: Stack, transferId: string): Promise<IdOutcome | undefined> {
  const r = (await stack.sandboxCall('GET', `/__sandbox/outcomes?transferId=${transferId}`)) as {
    outcomes: IdOutcome[];
  };
  return r.outcomes[0];
}

function direct(transferId: string, to: { bankAccount: string; ifsc: string } = SUCCESS, amount = '10.25') {
  return {
    type: 'payout.direct_transfer',
    data: { transferId, amount, beneDetails: { name: 'A Person', phone: '9876543210', ...to } },
  };
}

/** Provider calls seen by one service, by the metrics' endpoint template. */
function calls(service: ServiceApp, template: string): Promise<number> {
  return metric(service.url, 'payouts_provider_request_duration_seconds_count', { endpoint: template });
}
const V1_STATUS = 'GET /payout/v1.2/getTransferStatus';
const V2_STATUS = 'GET /payout/transfers';

function apisOf(events: readonly PayoutEvent[]): string[] {
  return [...new Set(events.map((e) => e.data.providerApi ?? 'none'))];
}

describe('a provider account on the v2 API, end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { PROVIDER_API_GENERATION: 'v2' } });
    await stack.registerBeneficiary({ beneId: 'BENE2', ...SUCCESS });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('a standard transfer goes to Transfers V2 by beneficiary id, and its events say v2', async () => {
    await stack.send({
      type: 'payout.standard_transfer',
      data: { transferId: 'v2_std_1', beneId: 'BENE2', amount: '120.50', transferMode: 'imps' },
    });
    const done = await stack.waitForStatus('v2_std_1', 'SUCCESS');
    assert.equal(done.data.amount, '120.50');
    assert.ok(done.data.svcTransferId, "the provider's cf_transfer_id is carried");
    assert.deepEqual(apisOf(stack.eventsOf('v2_std_1')), ['v2']);
    const [row] = await stack.sql<{ provider_api: string }>(
      'SELECT provider_api FROM payout WHERE transfer_id = $1',
      ['v2_std_1'],
    );
    assert.equal(row?.provider_api, 'v2');
    const o = await outcomeOf(stack, 'v2_std_1');
    assert.equal(o?.endpoint, 'transferV2');
    assert.equal(o?.paid, 1);
  });

  it('a direct transfer goes inline to Transfers V2; the account number stays masked', async () => {
    await stack.send(direct('v2_dir_1'));
    const done = await stack.waitForStatus('v2_dir_1', 'SUCCESS');
    assert.equal(done.data.beneficiary?.bankAccount, 'XXXXXXXXXXX1191');
    assert.equal((await outcomeOf(stack, 'v2_dir_1'))?.endpoint, 'transferV2');
    for (const e of stack.eventsOf('v2_dir_1')) assert.ok(!JSON.stringify(e).includes(SUCCESS.bankAccount));
  });

  it('a batch goes to Batch Transfer V2 and completes from the v2 batch status', async () => {
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'v2_batch_1',
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          { transferId: 'v2_be_1', amount: '11.00', name: 'A Person', phone: '9876543210', ...SUCCESS },
          { transferId: 'v2_be_2', amount: '12.34', name: 'B Person', phone: '9876543210', ...SUCCESS },
        ],
      },
    });
    const done = await stack.waitForStatus('v2_batch_1', 'COMPLETED', 30_000);
    assert.deepEqual(done.data.totals, { entries: 2, succeeded: 2, failed: 0, pending: 0 });
    assert.equal(done.data.providerApi, 'v2');
    assert.ok(done.data.referenceId, "the provider's cf_batch_transfer_id");
    await stack.waitForStatus('v2_be_1', 'SUCCESS');
    const entry = await stack.waitForStatus('v2_be_2', 'SUCCESS');
    assert.equal(entry.data.providerApi, 'v2');
    const [row] = await stack.sql<{ provider_api: string }>(
      'SELECT provider_api FROM batch WHERE batch_transfer_id = $1',
      ['v2_batch_1'],
    );
    assert.equal(row?.provider_api, 'v2');
  });

  // The other kinds have one endpoint on both generations (ADR 0019): on a v2 account they go where
  // they go on v1, and their events still name the account's generation.
  it('card, validated UPI, internal transfer and self withdrawal on a v2 account: paid on their own endpoints', async () => {
    const minted = (await stack.sandboxCall('POST', '/__sandbox/transfer-tokens', {
      transfer_id: 'v2_upi_1',
      vpa: 'success@upi',
    })) as { transfer_token: string };
    const commands = [
      {
        type: 'payout.card_payout',
        data: {
          transferId: 'v2_card_1',
          amount: '10.00',
          cardToken: '4718610000000001',
          cardType: 'CREDIT',
          networkType: 'VISA',
        },
      },
      {
        type: 'payout.validated_upi_payout',
        data: { transferId: 'v2_upi_1', amount: '99.99', transferToken: minted.transfer_token },
      },
      {
        type: 'payout.internal_transfer',
        data: { transferId: 'v2_int_1', amount: '1000.00', rechargeAccount: 'RA0001' },
      },
      { type: 'payout.self_withdrawal', data: { withdrawalId: 'v2_wd_1', amount: '5.00' } },
    ];
    for (const c of commands) await stack.send(c);
    const expected: Record<string, string> = { v2_card_1: 'cardpay', v2_upi_1: 'processValidatedPayout' };
    for (const id of ['v2_card_1', 'v2_upi_1', 'v2_int_1', 'v2_wd_1']) {
      await stack.waitForStatus(id, 'SUCCESS');
      assert.deepEqual(apisOf(stack.eventsOf(id)), ['v2'], id);
      const want = expected[id];
      if (want) assert.equal((await outcomeOf(stack, id))?.endpoint, want, id);
    }
  });

  it('a 5xx after the provider applied the transfer: UNKNOWN, found by status, paid once', async () => {
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'transferV2',
      applyThenStatus: 500,
      times: 1,
    });
    await stack.send(direct('v2_5xx_1'));
    await stack.waitForStatus('v2_5xx_1', 'SUCCESS');
    assert.ok(statusesOf(stack, 'v2_5xx_1').includes('UNKNOWN'), statusesOf(stack, 'v2_5xx_1').join());
    const o = await outcomeOf(stack, 'v2_5xx_1');
    assert.equal(o?.initiations, 1, 'never re-sent after a 5xx: checked by transfer_id');
    assert.equal(o?.paid, 1);
  });

  it('a lost answer (connection reset after the apply): found by status, paid once', async () => {
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'transferV2',
      loseAnswer: 'reset',
      times: 1,
    });
    await stack.send(direct('v2_lost_1'));
    await stack.waitForStatus('v2_lost_1', 'SUCCESS');
    const o = await outcomeOf(stack, 'v2_lost_1');
    assert.equal(o?.paid, 1);
    assert.equal(o?.accepted, 1);
  });

  it('a 409 transfer_id_already_exists is looked up, never FAILED', async () => {
    // The provider holds the id already (an earlier send we never heard back from).
    const held = await fetch(`${stack.sandbox.url}/payout/transfers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-client-id': stack.sandbox.clientId,
        'x-client-secret': stack.sandbox.clientSecret,
        'x-api-version': '2024-01-01',
      },
      body: JSON.stringify({
        transfer_id: 'v2_dup_1',
        transfer_amount: 10.25,
        beneficiary_details: {
          beneficiary_name: 'A Person',
          beneficiary_instrument_details: {
            bank_account_number: SUCCESS.bankAccount,
            bank_ifsc: SUCCESS.ifsc,
          },
        },
      }),
    });
    assert.equal(held.status, 200);
    await stack.send(direct('v2_dup_1'));
    await stack.waitForStatus('v2_dup_1', 'SUCCESS');
    const unknown = stack.eventsOf('v2_dup_1').find((e) => e.data.status === 'UNKNOWN');
    assert.equal(unknown?.data.reason, 'already_exists_at_provider');
    assert.ok(!statusesOf(stack, 'v2_dup_1').includes('FAILED'));
    assert.equal((await outcomeOf(stack, 'v2_dup_1'))?.paid, 1);
  });

  it('a refusal of a first send is final: unknown beneficiary FAILED (sent); a wallet mode refused at intake (v2 rule, not sent)', async () => {
    await stack.send({
      type: 'payout.standard_transfer',
      data: { transferId: 'v2_ref_1', beneId: 'NOPE1', amount: '5.00' },
    });
    const failed = await stack.waitForStatus('v2_ref_1', 'FAILED');
    assert.equal(failed.data.statusCode, 'beneficiary_not_found');
    await stack.send({
      type: 'payout.standard_transfer',
      data: { transferId: 'v2_ref_2', beneId: 'BENE2', amount: '5.00', transferMode: 'wallet_a' },
    });
    const dead = await eventually(async () => stack.dlq.find((m) => m.key?.toString() === 'v2_ref_2'));
    assert.equal(dead.headers?.['dlq-reason']?.toString(), 'api_generation_rule');
    assert.match(dead.headers?.['dlq-detail']?.toString() ?? '', /v2_no_wallet_modes/);
    assert.deepEqual(stack.eventsOf('v2_ref_2'), []);
    assert.equal((await outcomeOf(stack, 'v2_ref_2'))?.initiations ?? 0, 0, 'never sent');
  });
});

describe('a v2 account with v2 webhooks', () => {
  let stack: Stack;
  let service: ServiceApp;
  before(async () => {
    stack = await startStack({
      env: {
        PROVIDER_API_GENERATION: 'v2',
        SERVICE_ROLES: 'intake,executor,reconciler,relay,webhooks',
        WEBHOOKS_PORT: '0',
        // The first status check is 30 s away: only the webhook can settle the payout in time.
        RECONCILE_SCHEDULE: '30s,1m',
        REVERSAL_WATCH_SCHEDULE: 'off',
      },
      sandbox: { pendingDelayMs: 500 },
    });
    service = await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('a provider-shaped v2 webhook settles a v2 payout with no status call', async () => {
    await stack.sandboxCall('POST', '/__sandbox/webhooks', {
      url: `${service.webhooksUrl}/webhooks/v2/${ACCOUNT}`,
      version: 'v2',
    });
    const before = (await calls(service, V1_STATUS)) + (await calls(service, V2_STATUS));
    await stack.send(direct('v2_wh_1', PENDING_THEN_SUCCESS));
    await stack.waitForStatus('v2_wh_1', 'PENDING');
    const done = await stack.waitForStatus('v2_wh_1', 'SUCCESS', 10_000);
    assert.ok(done.data.utr, "the provider's UTR, from the webhook");
    assert.equal(done.data.providerApi, 'v2');
    assert.equal(
      (await calls(service, V1_STATUS)) + (await calls(service, V2_STATUS)),
      before,
      'no status call',
    );
    assert.equal((await keptWebhooks(stack, 'v2_wh_1'))[0]?.outcome, 'applied');
  });
});

describe('an account switched from v1 to v2 with payouts in flight', () => {
  let stack: Stack;
  before(async () => {
    // Pending for a minute of sandbox time: still in flight across the restart.
    stack = await startStack({ sandbox: { pendingDelayMs: 60_000 } });
  });
  after(async () => {
    await stack?.close();
  });

  it('checks each payout on the generation it was sent on', async () => {
    const v1 = await stack.startService();
    await stack.send(direct('sw_v1', PENDING_THEN_SUCCESS));
    await stack.waitForStatus('sw_v1', 'PENDING');
    await v1.close();
    stack.services.splice(stack.services.indexOf(v1), 1);

    const v2 = await stack.startService({ PROVIDER_API_GENERATION: 'v2' });
    await stack.send(direct('sw_v2', PENDING_THEN_SUCCESS));
    await stack.waitForStatus('sw_v2', 'PENDING');
    // Both are asked about on the new service, each on its own generation's status endpoint.
    await eventually(async () =>
      (await calls(v2, V1_STATUS)) > 0 && (await calls(v2, V2_STATUS)) > 0 ? true : undefined,
    );
    await stack.sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 120 });
    await stack.waitForStatus('sw_v1', 'SUCCESS');
    await stack.waitForStatus('sw_v2', 'SUCCESS');

    const rows = await stack.sql<{ transfer_id: string; provider_api: string }>(
      "SELECT transfer_id, provider_api FROM payout WHERE transfer_id LIKE 'sw_%' ORDER BY transfer_id",
    );
    assert.deepEqual(
      rows.map((r) => [r.transfer_id, r.provider_api]),
      [
        ['sw_v1', 'v1'],
        ['sw_v2', 'v2'],
      ],
    );
    assert.deepEqual(apisOf(stack.eventsOf('sw_v1')), ['v1']);
    assert.deepEqual(apisOf(stack.eventsOf('sw_v2')), ['v2']);
    assert.equal((await outcomeOf(stack, 'sw_v1'))?.endpoint, 'directTransfer');
    assert.equal((await outcomeOf(stack, 'sw_v2'))?.endpoint, 'transferV2');
    for (const id of ['sw_v1', 'sw_v2']) assert.equal((await outcomeOf(stack, id))?.paid, 1, id);
  });
});
