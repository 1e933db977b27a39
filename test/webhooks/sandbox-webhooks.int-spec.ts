import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { ACCOUNT, directTransfer, keptWebhooks, metric, statusCalls, statusesOf } from './helpers.js';

const PENDING_THEN_SUCCESS = { bankAccount: '00224412311300', ifsc: 'YESB0000001' };
const PENDING_THEN_FAILURE = { bankAccount: '7766666351000', ifsc: 'YESB0000001' };

interface Delivery {
  event: string;
  transferId?: string;
  outcome: string;
  httpStatus?: number;
}

// End to end: the provider sandbox itself sends the webhooks (signed as the provider signs) to
// the service's listener, and a pending payout settles with no status call. The reconciler's
// first check is 30 s away.
describe('webhooks sent by the provider sandbox', () => {
  let stack: Stack;
  let service: ServiceApp;

  before(async () => {
    stack = await startStack({
      env: {
        SERVICE_ROLES: 'intake,executor,reconciler,relay,webhooks',
        WEBHOOKS_PORT: '0',
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

  async function deliveries(transferId: string): Promise<Delivery[]> {
    const all = (await stack.sandboxCall('GET', '/__sandbox/webhooks/deliveries')) as
      Delivery[] | { deliveries: Delivery[] };
    return (Array.isArray(all) ? all : all.deliveries).filter((d) => d.transferId === transferId);
  }

  for (const [version, transferId, to, account] of [
    ['v2', 'whs_v2', 'SUCCESS', PENDING_THEN_SUCCESS],
    ['v1', 'whs_v1', 'FAILED', PENDING_THEN_FAILURE],
  ] as const) {
    it(`${version}: a pending payout settles ${to} from the sandbox's own webhook, with no status call`, async () => {
      await stack.sandboxCall('POST', '/__sandbox/webhooks', {
        url: `${service.webhooksUrl}/webhooks/${version}/${ACCOUNT}`,
        version,
      });
      const calls = await statusCalls(service.url);
      await stack.send(directTransfer(transferId, '10.00', account));
      await stack.waitForStatus(transferId, 'PENDING');
      const done = await stack.waitForStatus(transferId, to, 10_000);
      assert.deepEqual(statusesOf(stack, transferId), ['RECEIVED', 'SUBMITTING', 'PENDING', to]);
      if (to === 'SUCCESS') assert.ok(done.data.utr, "the provider's UTR, from the webhook");
      assert.equal(await statusCalls(service.url), calls, 'no status call');
      const first = (await keptWebhooks(stack, transferId))[0];
      assert.equal(first?.outcome, 'applied');
      const sent = await eventually(async () => {
        const d = await deliveries(transferId);
        return d.length > 0 && d.every((x) => x.outcome === 'delivered') ? d : undefined;
      });
      assert.ok(sent.every((d) => d.httpStatus === 200));
    });
  }

  it('duplicated and reordered deliveries from the sandbox change nothing: one SUCCESS, its version once', async () => {
    await stack.sandboxCall('POST', '/__sandbox/webhooks', {
      url: `${service.webhooksUrl}/webhooks/v2/${ACCOUNT}`,
      version: 'v2',
      faults: { duplicateRate: 1, reorderWindowMs: 300, seed: 7 },
    });
    try {
      const duplicates = await metric(service.url, 'payouts_webhooks_received_total', {
        result: 'duplicate',
      });
      await stack.send(directTransfer('whs_faults', '10.00', PENDING_THEN_SUCCESS));
      const done = await stack.waitForStatus('whs_faults', 'SUCCESS', 10_000);
      // Shuffled, TRANSFER_ACKNOWLEDGED comes before TRANSFER_SUCCESS: an odd order, so it asks
      // for a status check; whichever settles it first, the other finds it settled.
      await eventually(async () => {
        const kept = await keptWebhooks(stack, 'whs_faults');
        return kept.length === 2 && kept.every((k) => k.state === 'done') ? kept : undefined;
      });
      await eventually(async () =>
        (await metric(service.url, 'payouts_webhooks_received_total', { result: 'duplicate' })) >=
        duplicates + 2
          ? true
          : undefined,
      );
      assert.deepEqual(statusesOf(stack, 'whs_faults'), ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS']);
      const [row] = await stack.sql<{ version: number; status: string }>(
        'SELECT version, status FROM payout WHERE transfer_id = $1',
        ['whs_faults'],
      );
      assert.deepEqual(row, { version: done.data.version, status: 'SUCCESS' });
    } finally {
      await stack.sandboxCall('POST', '/__sandbox/webhooks', {
        faults: { duplicateRate: 0, reorderWindowMs: 0 },
      });
    }
  });
});
