import { createServer, request, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { ACCOUNTS, directTransfer, metric } from './helpers.js';

interface StatusCall {
  readonly transferId: string;
  readonly start: number;
  readonly end: number;
}

/** A pass-through HTTP proxy in front of the sandbox that records when each status call ran. */
async function recordingProxy(target: string): Promise<{ url: string; calls: StatusCall[]; server: Server }> {
  const calls: StatusCall[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const status = url.pathname.includes('getTransferStatus');
    const start = performance.now();
    const up = request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', () => {
        if (status)
          calls.push({ transferId: url.searchParams.get('transferId') ?? '', start, end: performance.now() });
      });
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, server };
}

const ROWS = 12;
const CHECKS = 15;

// Two services reconcile the same ledger. Each status call takes 150 ms and rows are due every
// 50 ms, so a row claimed twice would be asked about twice at once; the proxy would see it.
describe('two reconciler instances over one database', () => {
  let stack: Stack;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let a: ServiceApp;
  let b: ServiceApp;
  before(async () => {
    stack = await startStack({
      env: {
        RECONCILE_SCHEDULE: Array(CHECKS).fill('50ms').join(','),
        RECONCILER_POLL_MS: '20',
        RECONCILER_BATCH_SIZE: '3',
      },
    });
    proxy = await recordingProxy(stack.sandbox.url);
    await stack.sandboxCall('POST', '/__sandbox/faults', { endpoint: 'getTransferStatus', latencyMs: 150 });
    a = await stack.startService({ PROVIDER_PAYOUT_URL: proxy.url });
    b = await stack.startService({ PROVIDER_PAYOUT_URL: proxy.url, SERVICE_ROLES: 'reconciler' });
  });
  after(async () => {
    await stack?.close();
    proxy?.server.close();
  });

  it('never check the same row at the same time, and share the work', async () => {
    const ids = Array.from({ length: ROWS }, (_, i) => `rt_${i}`);
    for (const id of ids) await stack.send(directTransfer(id, ACCOUNTS.staysPending));
    for (const id of ids) await stack.waitForStatus(id, 'REQUIRES_ATTENTION', 40_000);

    for (const id of ids) {
      const calls = proxy.calls.filter((c) => c.transferId === id).sort((x, y) => x.start - y.start);
      for (let i = 1; i < calls.length; i += 1) {
        const [prev, next] = [calls[i - 1], calls[i]];
        assert.ok(
          prev && next && next.start >= prev.end,
          `${id}: check ${i + 1} started before check ${i} had finished`,
        );
      }
      assert.equal(calls.length, CHECKS, `${id}: one status call per scheduled check`);
    }
    const checksA = await metric(a.url, 'payouts_reconciler_checks_total', { status: 'PENDING' });
    const checksB = await metric(b.url, 'payouts_reconciler_checks_total', { status: 'PENDING' });
    assert.equal(checksA + checksB, ROWS * CHECKS);
    assert.ok(checksA > 0 && checksB > 0, `both instances checked rows (${checksA} / ${checksB})`);
  });
});
