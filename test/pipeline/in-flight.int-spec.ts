import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { eventually, startStack, type Stack } from '#test-support';

const MAIN = 'dist/apps/payout-service/src/main.js';

interface Received {
  initiations: Array<{ endpoint: string; accepted: boolean; answer: string }>;
  accepted: number;
}

const received = (stack: Stack, id: string) =>
  stack.sandboxCall('GET', `/__sandbox/received?transferId=${id}`) as Promise<Received>;
const ledger = async (stack: Stack, id: string) =>
  (
    await stack.sql<{ status: string; attempt: number }>(
      'SELECT status, attempt FROM payout WHERE transfer_id = $1',
      [id],
    )
  )[0];

const direct = (transferId: string) => ({
  type: 'payout.direct_transfer',
  data: {
    transferId,
    amount: '10.00',
    transferMode: 'banktransfer',
    beneDetails: {
      name: 'A Person',
      phone: '9876543210',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
    },
  },
});

// A provider call may take longer than the lease (rate-limit wait, authorize, a 40 s header
// timeout, retries). The worker that made it keeps its lease meanwhile: no other instance takes
// the row, nothing is sent twice, and the call's own answer is what the ledger records.
describe('a provider call slower than the lease', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { EXECUTOR_LEASE_MS: '1500' } });
  });
  after(async () => {
    await stack?.close();
  });

  it('is not re-sent by another instance’s reconciler, and its answer is recorded', async () => {
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'directTransfer',
      latencyMs: 5_000,
      times: 1,
    });
    await stack.startService({ SERVICE_ROLES: 'intake,executor,relay' });
    await stack.startService({ SERVICE_ROLES: 'reconciler' });
    await stack.send(direct('slow_1'));
    await stack.waitForStatus('slow_1', 'SUCCESS', 30_000);
    const r = await received(stack, 'slow_1');
    assert.equal(r.initiations.length, 1, 'the provider saw the transferId once');
    const row = await ledger(stack, 'slow_1');
    assert.equal(row?.attempt, 1);
    const statuses = [...new Set(stack.eventsOf('slow_1').map((e) => e.data.status))];
    assert.deepEqual(statuses, ['RECEIVED', 'SUBMITTING', 'SUCCESS'], 'the first call’s own answer');
  });
});

// Batches are submitted by the executor too, but a batch call (hundreds of entries, a slow
// provider) must not hold up the single payouts behind it.
describe('a slow batch submission', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('does not keep single payouts from being claimed and sent', async () => {
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'requestBatchTransfer',
      latencyMs: 8_000,
      times: 1,
    });
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'slow_batch_1',
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          {
            transferId: 'slow_batch_1_a',
            amount: '25.00',
            name: 'Batch Person',
            phone: '9876543210',
            bankAccount: '026291800001191',
            ifsc: 'YESB0000262',
          },
        ],
      },
    });
    await eventually(
      async () =>
        (
          await stack.sql<{ status: string }>('SELECT status FROM batch WHERE batch_transfer_id = $1', [
            'slow_batch_1',
          ])
        )[0]?.status === 'SUBMITTING'
          ? true
          : undefined,
      { what: 'the batch call in flight' },
    );
    const sentAt = Date.now();
    await stack.send(direct('beside_batch_1'));
    await stack.waitForStatus('beside_batch_1', 'SUCCESS', 20_000);
    const tookMs = Date.now() - sentAt;
    assert.ok(tookMs < 5_000, `the single payout waited for the batch call: ${tookMs} ms`);
    const batch = await stack.sql<{ status: string }>(
      'SELECT status FROM batch WHERE batch_transfer_id = $1',
      ['slow_batch_1'],
    );
    assert.equal(batch[0]?.status, 'SUBMITTING', 'the batch call was still in flight');
    // The latency runs on the sandbox's clock: its answer now, so closing does not wait out the
    // rest of those 8 s for the call in flight.
    await stack.sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 8 });
  });
});

// A deploy sends SIGTERM while calls are in flight. The service stops taking work, lets the calls
// finish, records their answers (and publishes them), then exits.
describe('SIGTERM with a slow provider call in flight', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });

  it('records the call’s outcome before the process exits', async () => {
    // Long enough for SIGTERM to land while the call runs (it is sent once SUBMITTING is seen),
    // well inside the default 60 s grace period.
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'directTransfer',
      latencyMs: 6_000,
      times: 1,
    });
    const log: string[] = [];
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, ...stack.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    try {
      await stack.send(direct('term_1'));
      await eventually(
        async () => ((await ledger(stack, 'term_1'))?.status === 'SUBMITTING' ? true : undefined),
        { timeoutMs: 30_000, what: 'term_1 SUBMITTING in the ledger' },
      );
      child.kill('SIGTERM');
      // Once the drain has begun with the call in flight, its answer comes (the latency runs on
      // the sandbox's clock) instead of after the rest of those 6 s.
      await eventually(() => (log.some((l) => l.includes('shutting down')) ? true : undefined), {
        what: 'the shutdown begun',
      });
      assert.equal((await ledger(stack, 'term_1'))?.status, 'SUBMITTING', 'the call is still in flight');
      await stack.sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 6 });
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0, `clean exit; child log:\n${log.slice(-10).join('\n')}`);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    assert.equal((await ledger(stack, 'term_1'))?.status, 'SUCCESS', 'the answer was recorded before exit');
    await stack.waitForStatus('term_1', 'SUCCESS', 10_000);
    assert.equal((await received(stack, 'term_1')).initiations.length, 1);
  });
});

// A call that outlasts the grace period is not waited for: the service marks it UNKNOWN before
// exiting, and the next instance asks the provider about it at once (no lease to wait out).
describe('SIGTERM with a call slower than the grace period', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });

  it('leaves the payout UNKNOWN for a status check, and it is paid once', async () => {
    // The call outlasts the grace period (12 s: its reserve is 4 s, so the call is given up 8 s
    // after SIGTERM, leaving the process 4 s to exit before the grace period's hard end).
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'directTransfer',
      latencyMs: 16_000,
      times: 1,
    });
    const log: string[] = [];
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, ...stack.env, LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '12000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    try {
      await stack.send(direct('term_slow_1'));
      await eventually(
        async () => ((await ledger(stack, 'term_slow_1'))?.status === 'SUBMITTING' ? true : undefined),
        { timeoutMs: 30_000, what: 'term_slow_1 SUBMITTING in the ledger' },
      );
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0, `clean exit; child log:\n${log.slice(-10).join('\n')}`);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const interrupted = await stack.waitForStatus('term_slow_1', 'UNKNOWN', 5_000);
    assert.equal(interrupted.data.reason, 'interrupted_by_shutdown');
    await stack.startService({ SERVICE_ROLES: 'executor,reconciler,relay' });
    await stack.waitForStatus('term_slow_1', 'SUCCESS', 20_000);
    assert.equal((await received(stack, 'term_slow_1')).accepted, 1, 'paid once');
  });
});
