import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { eventually, startStack, type Stack } from '#test-support';

const MAIN = 'dist/apps/payout-service/src/main.js';

interface Received {
  initiations: Array<{ endpoint: string; accepted: boolean; answer: string }>;
  accepted: number;
}

// Invariants 1 and 2 across a crash: the service dies between "the provider applied the
// transfer" and "the ledger recorded the answer". A new instance must find the true state
// without paying twice.
describe('crash between the provider call and recording its answer', () => {
  let stack: Stack;
  let child: ChildProcess | undefined;
  const childLog: string[] = [];

  before(async () => {
    stack = await startStack({ env: { EXECUTOR_LEASE_MS: '1500' } });
    await stack.registerBeneficiary({ beneId: 'BENE1', bankAccount: '026291800001191', ifsc: 'YESB0000262' });
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await stack?.close();
  });

  const received = (id: string) =>
    stack.sandboxCall('GET', `/__sandbox/received?transferId=${id}`) as Promise<Received>;
  const ledger = async (id: string) =>
    (
      await stack.sql<{ status: string; attempt: number }>(
        'SELECT status, attempt FROM payout WHERE transfer_id = $1',
        [id],
      )
    )[0];

  it('a transfer applied by the provider whose answer was lost is recovered as SUCCESS, paid once', async () => {
    // The provider applies the transfer, then never answers.
    await stack.sandboxCall('POST', '/__sandbox/faults', { endpoint: 'requestTransfer', loseAnswer: 'hang' });

    child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, ...stack.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => childLog.push(...b.toString().split('\n').filter(Boolean));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);

    await stack.send({
      type: 'payout.standard_transfer',
      data: { transferId: 'crash_1', beneId: 'BENE1', amount: '500.00', transferMode: 'banktransfer' },
    });
    try {
      await eventually(async () => ((await ledger('crash_1'))?.status === 'SUBMITTING' ? true : undefined), {
        timeoutMs: 30_000,
        what: 'crash_1 SUBMITTING in the ledger',
      });
      await eventually(async () => ((await received('crash_1')).accepted === 1 ? true : undefined), {
        what: 'the provider applied crash_1',
      });
    } catch (e) {
      throw new Error(`${String(e)}\nchild log:\n${childLog.slice(-20).join('\n')}`, { cause: e });
    }

    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal((await ledger('crash_1'))?.status, 'SUBMITTING', 'the crash left the row SUBMITTING');

    await stack.sandboxCall('DELETE', '/__sandbox/faults');
    // No intake: the dead member still holds the group's partitions until its session times out,
    // and recovery needs none (the row is in the ledger).
    await stack.startService({ SERVICE_ROLES: 'executor,reconciler,relay' });

    const done = await stack.waitForStatus('crash_1', 'SUCCESS', 30_000);
    assert.equal(done.data.amount, '500.00');
    const row = await ledger('crash_1');
    assert.equal(row?.status, 'SUCCESS');
    assert.ok((row?.attempt ?? 0) >= 2, 'it was re-sent with the same transferId');

    const r = await received('crash_1');
    assert.equal(r.accepted, 1, 'the provider accepted exactly one initiation');
    assert.ok(r.initiations.length >= 2, 'the re-send reached the provider and was refused as a duplicate');
    assert.ok(r.initiations.every((i) => i.endpoint === 'requestTransfer'));

    // Events: stable ids, versions only go up, the path ends in SUCCESS with nothing after it.
    const events = stack.eventsOf('crash_1');
    for (const e of events) assert.equal(e.id, `crash_1:${e.data.version}`);
    const versions = [...new Set(events.map((e) => e.data.version))];
    assert.deepEqual(
      versions,
      [...versions].sort((a, b) => a - b),
    );
    const statuses = events.map((e) => e.data.status);
    assert.equal(statuses.at(-1), 'SUCCESS');
    assert.ok(statuses.includes('UNKNOWN'), `"already exists" made it UNKNOWN first: ${statuses.join(', ')}`);
  });
});
