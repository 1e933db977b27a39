import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { eventually, postV1, startStack, type Stack } from '#test-support';
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
    it(`${version}: a pending payout settles ${to} from the sandbox's own webhook${version === 'v2' ? ', with no status call' : ', through a status check it asks for'}`, async () => {
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
      const first = (await keptWebhooks(stack, transferId))[0];
      if (version === 'v2') {
        assert.equal(await statusCalls(service.url), calls, 'no status call');
        assert.equal(first?.outcome, 'applied');
      } else {
        // A v1 signature does not bind values to names: the webhook only asks (ADR 0013).
        assert.ok((await statusCalls(service.url)) > calls, 'a status call settled it');
        assert.equal(first?.outcome, 'recheck');
      }
      const sent = await eventually(async () => {
        const d = await deliveries(transferId);
        return d.length > 0 && d.every((x) => x.outcome === 'delivered') ? d : undefined;
      });
      assert.ok(sent.every((d) => d.httpStatus === 200));
    });
  }

  it('a captured v1 TRANSFER_FAILED re-aimed at another pending payout leaves it PENDING; its own TRANSFER_SUCCESS settles it', async () => {
    // A recording proxy between the sandbox and the service, as an attacker on the path would be.
    const captured: string[] = [];
    const target = `${service.webhooksUrl}/webhooks/v1/${ACCOUNT}`;
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        captured.push(body);
        void postV1(target, body).then(
          (status) => res.writeHead(status).end(),
          () => res.writeHead(502).end(),
        );
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    try {
      await stack.sandboxCall('POST', '/__sandbox/webhooks', {
        url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`,
        version: 'v1',
      });
      // A (…1001) fails at the provider soon; B (…100) stays pending for two minutes of sandbox clock.
      await stack.sandboxCall('POST', '/__sandbox/timing', { pendingDelayMs: 300 });
      await stack.send(directTransfer('whs_po1001', '10.00', PENDING_THEN_FAILURE));
      await stack.waitForStatus('whs_po1001', 'PENDING');
      await stack.sandboxCall('POST', '/__sandbox/timing', { pendingDelayMs: 120_000 });
      await stack.send(directTransfer('whs_po100', '10.00', PENDING_THEN_SUCCESS));
      await stack.waitForStatus('whs_po100', 'PENDING');
      await stack.waitForStatus('whs_po1001', 'FAILED', 10_000);
      const genuine = captured.find((b) => b.includes('TRANSFER_FAILED') && b.includes('whs_po1001'));
      assert.ok(genuine, 'the genuine TRANSFER_FAILED of A, captured');
      const f = new URLSearchParams(genuine);
      const reference = f.get('referenceId') ?? '';
      assert.ok(reference, "A's referenceId");
      // Re-aimed: the last digit of A's transferId moved into utr (the values sort as
      // …referenceId, transferId, utr, so their concatenation, the signed text, is the same).
      const shift = (g: URLSearchParams) => {
        g.set('transferId', 'whs_po100');
        g.set('utr', `1${g.get('utr') ?? ''}`);
        return g;
      };
      // Variant 1: referenceId renamed (a name that sorts in the same place), so nothing to compare.
      const renamed = shift(new URLSearchParams(genuine));
      renamed.delete('referenceId');
      renamed.set('referenceIdx', reference);
      // Variant 2: A's referenceId folded into the end of reason (reason and referenceId are
      // neighbours too), leaving referenceId empty.
      const folded = shift(new URLSearchParams(genuine));
      folded.set('reason', `${folded.get('reason') ?? ''}${reference}`);
      folded.set('referenceId', '');
      const calls = await statusCalls(service.url);
      for (const variant of [renamed, folded]) assert.equal(await postV1(target, variant.toString()), 200);
      const kept = await eventually(async () => {
        const k = await keptWebhooks(stack, 'whs_po100');
        return k.length > 0 && k.every((w) => w.state === 'done') ? k : undefined;
      });
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(statusesOf(stack, 'whs_po100'), ['RECEIVED', 'SUBMITTING', 'PENDING'], 'no FAILED');
      // The renamed one is not kept (an undocumented name); the other only asked for a check.
      assert.deepEqual(kept, [{ state: 'done', outcome: 'recheck', event: 'TRANSFER_FAILED' }]);
      assert.equal(
        await metric(service.url, 'payouts_webhooks_received_total', { result: 'unexpected_field' }),
        1,
      );
      await eventually(async () => ((await statusCalls(service.url)) > calls ? true : undefined));
      // The provider pays B: its genuine TRANSFER_SUCCESS (through the proxy) settles it.
      await stack.sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 121 });
      const done = await stack.waitForStatus('whs_po100', 'SUCCESS', 10_000);
      assert.ok(done.data.utr);
      assert.deepEqual(statusesOf(stack, 'whs_po100'), ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS']);
    } finally {
      await stack.sandboxCall('POST', '/__sandbox/timing', { pendingDelayMs: 500 });
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it('v2: a payout the provider queued for low balance and then failed (INSUFFICIENT_BALANCE) by webhook is counted as a bounce, once', async () => {
    await stack.sandboxCall('POST', '/__sandbox/webhooks', {
      url: `${service.webhooksUrl}/webhooks/v2/${ACCOUNT}`,
      version: 'v2',
    });
    const bounced = () => metric(service.url, 'payouts_provider_balance_refusals_total');
    const before = await bounced();
    await stack.sandboxCall('POST', '/__sandbox/flags', { queueOnLowBalance: true, queueMaxMs: 3_600_000 });
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '1.00' });
    try {
      const calls = await statusCalls(service.url);
      await stack.send(directTransfer('whs_queued', '10.00', PENDING_THEN_SUCCESS));
      await stack.waitForStatus('whs_queued', 'PENDING');
      const queue = (await stack.sandboxCall('GET', '/__sandbox/queue')) as {
        queued: Array<{ transferId: string }>;
      };
      assert.deepEqual(
        queue.queued.map((q) => q.transferId),
        ['whs_queued'],
        'held by the provider for its balance',
      );
      assert.equal(await bounced(), before, 'queued is a wait, not a bounce');
      // The provider's maximum queue time passes: FAILED / INSUFFICIENT_BALANCE, by webhook.
      await stack.sandboxCall('POST', '/__sandbox/clock/advance', { ms: 3_600_000 });
      await stack.waitForStatus('whs_queued', 'FAILED', 10_000);
      assert.equal((await keptWebhooks(stack, 'whs_queued'))[0]?.outcome, 'applied');
      assert.equal(await statusCalls(service.url), calls, 'no status call: the webhook settled it');
      await eventually(async () => ((await bounced()) === before + 1 ? true : undefined));
    } finally {
      await stack.sandboxCall('POST', '/__sandbox/flags', { queueOnLowBalance: false });
      await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '1000000.00' });
    }
  });

  it('v1 notices as the sandbox sends them (with their own fields) still verify, are kept and published', async () => {
    await stack.sandboxCall('POST', '/__sandbox/webhooks', {
      url: `${service.webhooksUrl}/webhooks/v1/${ACCOUNT}`,
      version: 'v1',
    });
    const refusedBefore = await metric(service.url, 'payouts_webhooks_received_total', {
      result: 'unexpected_field',
    });
    // CREDIT_CONFIRMATION (amount), then LOW_BALANCE_ALERT (currentBalance, threshold) as a
    // transfer takes the balance below the threshold, and BENEFICIARY_INCIDENT (beneId).
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '100.00' });
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '1000.00' });
    await stack.sandboxCall('POST', '/__sandbox/webhooks', { lowBalanceThreshold: '995.00' });
    await stack.sandboxCall('POST', '/__sandbox/webhooks/incident', {
      beneficiaryId: 'bene_1',
      reason: 'Bank down',
    });
    await stack.send(directTransfer('whs_notice', '10.00', PENDING_THEN_SUCCESS));
    await eventually(() => stack.events.find((e) => e.type === 'payouts.provider.low_balance'));
    await eventually(() => stack.events.find((e) => e.type === 'payouts.provider.beneficiary_incident'));
    await eventually(async () => {
      const kept = await stack.sql<{ outcome: string | null }>(
        `SELECT outcome FROM provider_webhook WHERE event = 'CREDIT_CONFIRMATION'`,
      );
      return kept[0]?.outcome === 'ignored' ? true : undefined;
    });
    assert.equal(
      await metric(service.url, 'payouts_webhooks_received_total', { result: 'unexpected_field' }),
      refusedBefore,
      'no notice refused for its fields',
    );
  });

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
