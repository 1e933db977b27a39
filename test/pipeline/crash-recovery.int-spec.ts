import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { payoutKey, stateEventId } from '#ledger';
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

/**
 * Runs the service as a child process with the provider set to apply `endpoint`'s request and
 * never answer; sends `command`; SIGKILLs the child once the ledger says SUBMITTING and the
 * provider has accepted it; clears the fault. Returns the dead child.
 */
async function crashMidCall(
  stack: Stack,
  log: string[],
  endpoint: string,
  command: { type: string; data: object },
): Promise<ChildProcess> {
  const id = Object.values(command.data)[0] as string;
  await stack.sandboxCall('POST', '/__sandbox/faults', { endpoint, loseAnswer: 'hang' });
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ...stack.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await stack.send(command);
  try {
    await eventually(async () => ((await ledger(stack, id))?.status === 'SUBMITTING' ? true : undefined), {
      timeoutMs: 30_000,
      what: `${id} SUBMITTING in the ledger`,
    });
    await eventually(async () => ((await received(stack, id)).accepted === 1 ? true : undefined), {
      what: `the provider applied ${id}`,
    });
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${String(e)}\nchild log:\n${log.slice(-20).join('\n')}`, { cause: e });
  }
  child.kill('SIGKILL');
  await once(child, 'exit');
  await stack.sandboxCall('DELETE', '/__sandbox/faults');
  return child;
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

  it('a transfer applied by the provider whose answer was lost is recovered as SUCCESS, paid once', async () => {
    child = await crashMidCall(stack, childLog, 'requestTransfer', {
      type: 'payout.standard_transfer',
      data: { transferId: 'crash_1', beneId: 'BENE1', amount: '500.00', transferMode: 'banktransfer' },
    });
    assert.equal((await ledger(stack, 'crash_1'))?.status, 'SUBMITTING', 'the crash left the row SUBMITTING');

    // No intake: the dead member still holds the group's partitions until its session times out,
    // and recovery needs none (the row is in the ledger).
    await stack.startService({ SERVICE_ROLES: 'executor,reconciler,relay' });

    const done = await stack.waitForStatus('crash_1', 'SUCCESS', 30_000);
    assert.equal(done.data.amount, '500.00');
    const row = await ledger(stack, 'crash_1');
    assert.equal(row?.status, 'SUCCESS');
    assert.equal(row?.attempt, 1, 'settled by a status check, never re-sent');

    const r = await received(stack, 'crash_1');
    assert.equal(r.accepted, 1, 'the provider accepted exactly one initiation');
    assert.equal(r.initiations.length, 1, 'the provider saw the transferId once: no re-send after the crash');

    // Events: stable ids, versions only go up, the path ends in SUCCESS with nothing after it.
    const events = stack.eventsOf('crash_1');
    for (const e of events) assert.equal(e.id, stateEventId(payoutKey('default', 'crash_1'), e.data.version));
    const versions = [...new Set(events.map((e) => e.data.version))];
    assert.deepEqual(
      versions,
      [...versions].sort((a, b) => a - b),
    );
    assert.deepEqual([...new Set(events.map((e) => e.data.status))], ['RECEIVED', 'SUBMITTING', 'SUCCESS']);
  });
});

// An internal transfer is not deduplicated by the provider, but the legacy status endpoint knows
// it: a crash mid-call is settled by asking, not handed to a person and never re-sent.
describe('crash in the middle of an internal transfer (status endpoint, no provider-side idempotency)', () => {
  let stack: Stack;
  let child: ChildProcess | undefined;
  const childLog: string[] = [];
  before(async () => {
    stack = await startStack({ env: { EXECUTOR_LEASE_MS: '1500' } });
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await stack?.close();
  });

  it('is settled by its status (SUCCESS), sent once', async () => {
    child = await crashMidCall(stack, childLog, 'internalTransfer', {
      type: 'payout.internal_transfer',
      data: { transferId: 'crash_int_1', amount: '7.00', rechargeAccount: 'RA0001' },
    });
    await stack.startService({ SERVICE_ROLES: 'executor,reconciler,relay' });
    await stack.waitForStatus('crash_int_1', 'SUCCESS', 30_000);
    const r = await received(stack, 'crash_int_1');
    assert.equal(r.initiations.length, 1, 'sent once');
    assert.equal(r.accepted, 1);
    assert.equal((await ledger(stack, 'crash_int_1'))?.attempt, 1);
  });
});

// The provider does not deduplicate self withdrawals by withdrawalId (the sandbox models the
// interface document: no "already exists" row), and there is no status endpoint for them. A
// re-send after a crash would be a second withdrawal: the reconciler hands it to a person instead
// (`resendIsSafe` in libs/pipeline/src/shared/payout-kinds.ts).
describe('crash in the middle of a self withdrawal (no provider-side idempotency)', () => {
  let stack: Stack;
  let child: ChildProcess | undefined;
  const childLog: string[] = [];
  before(async () => {
    stack = await startStack({ env: { EXECUTOR_LEASE_MS: '1500' } });
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await stack?.close();
  });

  it('is never sent twice: it waits for a person (REQUIRES_ATTENTION)', async () => {
    child = await crashMidCall(stack, childLog, 'selfWithdrawal', {
      type: 'payout.self_withdrawal',
      data: { withdrawalId: 'crash_wd_1', amount: '5.00' },
    });
    await stack.startService({ SERVICE_ROLES: 'executor,reconciler,relay' });
    await eventually(
      async () => ((await ledger(stack, 'crash_wd_1'))?.status !== 'SUBMITTING' ? true : undefined),
      {
        what: 'crash_wd_1 leaves SUBMITTING',
      },
    );
    assert.equal((await received(stack, 'crash_wd_1')).accepted, 1, 'withdrawn once');
    assert.equal((await ledger(stack, 'crash_wd_1'))?.status, 'REQUIRES_ATTENTION');
    // The event follows the ledger's commit (the relay publishes it): wait for it.
    const last = await stack.waitForStatus('crash_wd_1', 'REQUIRES_ATTENTION');
    assert.equal(last.data.reason, 'in_doubt_resend_unsafe');
  });
});

// The same crash with many transfers in flight at once: every one is settled by a status check,
// and the provider sees each transferId exactly once.
describe('crash with many accepted transfers in flight', () => {
  let stack: Stack;
  let child: ChildProcess | undefined;
  before(async () => {
    stack = await startStack({ env: { EXECUTOR_LEASE_MS: '1500' } });
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await stack?.close();
  });

  it('no transferId reaches the provider twice', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `crash_many_${i}`);
    await stack.sandboxCall('POST', '/__sandbox/faults', { endpoint: 'directTransfer', loseAnswer: 'hang' });
    child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, ...stack.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    for (const id of ids) {
      await stack.send({
        type: 'payout.direct_transfer',
        data: {
          transferId: id,
          amount: '10.00',
          beneDetails: {
            name: 'A Person',
            phone: '9876543210',
            bankAccount: '026291800001191',
            ifsc: 'YESB0000262',
          },
        },
      });
    }
    await eventually(
      async () => {
        const accepted = await Promise.all(ids.map(async (id) => (await received(stack, id)).accepted));
        return accepted.every((n) => n === 1) ? true : undefined;
      },
      { timeoutMs: 30_000, what: 'the provider applied every transfer' },
    );
    child.kill('SIGKILL');
    await once(child, 'exit');
    await stack.sandboxCall('DELETE', '/__sandbox/faults');
    await stack.startService({ SERVICE_ROLES: 'executor,reconciler,relay' });
    for (const id of ids) await stack.waitForStatus(id, 'SUCCESS', 30_000);
    const seen = await Promise.all(ids.map(async (id) => (await received(stack, id)).initiations.length));
    assert.deepEqual(
      seen,
      ids.map(() => 1),
    );
  });
});
