import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startStack, type Stack } from '#test-support';

interface Readiness {
  status: number;
  body: {
    status: string;
    error?: Record<string, { status: string; message?: string }>;
    info?: Record<string, { status: string }>;
  };
}

// Readiness over real HTTP, fed by real provider answers: the sandbox stops accepting our source
// address, a payout attempt is refused (fatal-config), /health/ready goes 503 naming the provider
// and the reason; once the address is allowed again, the next call that works turns it green.
describe('readiness follows the provider accepting our credentials and address', () => {
  let stack: Stack;
  const ready = async (): Promise<Readiness> => {
    const res = await fetch(`${stack.services[0]?.url ?? ''}/health/ready`);
    return { status: res.status, body: (await res.json()) as Readiness['body'] };
  };
  const metric = async (name: string): Promise<string> => {
    const text = await (await fetch(`${stack.services[0]?.url ?? ''}/metrics`)).text();
    return text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';
  };

  before(async () => {
    // The refused payout is tried again after FATAL_CONFIG_RETRY_MS: keep that short.
    stack = await startStack({ env: { FATAL_CONFIG_RETRY_MS: '500' } });
    await stack.registerBeneficiary({ beneId: 'RDY1', bankAccount: '026291800001191', ifsc: 'YESB0000262' });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('is ready before any provider call', async () => {
    const r = await eventually(async () => {
      const x = await ready();
      return x.status === 200 ? x : undefined;
    });
    assert.equal(r.body.info?.['provider']?.status, 'up');
  });

  it('goes 503 naming the provider while it refuses our address; liveness stays 200', async () => {
    const allowed = (await stack.sandboxCall('GET', '/__sandbox/allowed-ips')) as { ips: string[] };
    await stack.sandboxCall('POST', '/__sandbox/allowed-ips', { ips: [] });
    await stack.send({
      type: 'payout.standard_transfer',
      data: { transferId: 'rdy_1', beneId: 'RDY1', amount: '5.00', transferMode: 'banktransfer' },
    });
    const red = await eventually(
      async () => {
        const x = await ready();
        return x.status === 503 ? x : undefined;
      },
      { timeoutMs: 20_000, what: 'readiness to go red' },
    );
    assert.equal(red.body.error?.['provider']?.status, 'down');
    assert.match(red.body.error?.['provider']?.message ?? '', /IP not whitelisted/i);
    assert.equal(red.body.error?.['postgres'], undefined);
    assert.equal(red.body.error?.['kafka'], undefined);
    assert.equal((await fetch(`${stack.services[0]?.url ?? ''}/health/live`)).status, 200);
    assert.equal(
      await metric('payouts_provider_fatal_config_accounts'),
      'payouts_provider_fatal_config_accounts 1',
    );

    // Allowed again: the refused payout is retried, succeeds, and readiness is green.
    await stack.sandboxCall('POST', '/__sandbox/allowed-ips', { ips: allowed.ips });
    await stack.waitForStatus('rdy_1', 'SUCCESS', 30_000);
    const green = await eventually(
      async () => {
        const x = await ready();
        return x.status === 200 ? x : undefined;
      },
      { timeoutMs: 10_000, what: 'readiness to go green' },
    );
    assert.equal(green.body.info?.['provider']?.status, 'up');
    assert.equal(
      await metric('payouts_provider_fatal_config_accounts'),
      'payouts_provider_fatal_config_accounts 0',
    );
  });
});
