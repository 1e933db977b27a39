import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startStack, type Stack } from '#test-support';

const MAIN = 'dist/apps/payout-service/src/main.js';

// Found by the chaos run's rolling restart: the workers start (and may call the provider) while
// the Kafka consumer joins its group, seconds before the service is ready; a SIGTERM then killed
// the process outright, as a SIGKILL would, instead of draining it.
describe('SIGTERM while the service is still starting', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });

  it('drains and exits 0 once it has started, not killed by the signal', async () => {
    const log: string[] = [];
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, ...stack.env, LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '20000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let signalled = false;
    const keep = (b: Buffer) => {
      const lines = b.toString().split('\n').filter(Boolean);
      log.push(...lines);
      // The first line of the application (modules built, not yet consuming).
      if (!signalled && lines.some((l) => l.includes('dependencies initialized'))) {
        signalled = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    try {
      const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
      assert.ok(signalled, 'the test sent SIGTERM during start-up');
      assert.deepEqual(
        { code, signal },
        { code: 0, signal: null },
        `child log:\n${log.slice(-10).join('\n')}`,
      );
      assert.ok(
        log.some((l) => l.includes('shutting down')),
        "the shutdown was the service's own",
      );
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
