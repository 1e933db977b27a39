import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startStack, type Stack } from '#test-support';

const CARD_TOKEN = '4718610000000019'; // the sandbox answers PENDING, then FAILED
const CRYPTOGRAM = 'AgAAAAAAAIR8CQrXSohbQAAAAAAA';

// The card token, cryptogram and transfer token are needed until a payout is terminal: they are
// stored AES-256-GCM encrypted (with a key id), never in the clear, and erased at the end.
describe('secrets at rest', () => {
  let stack: Stack;
  before(async () => {
    // A long first check keeps the card payout PENDING (secrets still stored) while we look.
    stack = await startStack({
      env: { RECONCILE_SCHEDULE: '2s,300ms,300ms,1s,1s' },
      sandbox: { pendingDelayMs: 60_000 },
    });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  const rowText = async (id: string) =>
    (
      await stack.sql<{ t: string }>(
        `SELECT row_to_json(p)::text AS t FROM payout p WHERE transfer_id = $1`,
        [id],
      )
    )[0]?.t ?? '';
  const secrets = async (id: string) =>
    (
      await stack.sql<{ s: Record<string, { kid: string; iv: string; tag: string; ct: string }> | null }>(
        `SELECT request_secrets AS s FROM payout WHERE transfer_id = $1`,
        [id],
      )
    )[0]?.s;

  it('stores the card token and cryptogram encrypted while the payout is open, and erases them when it ends', async () => {
    await stack.send({
      type: 'payout.card_payout',
      data: {
        transferId: 'sec_card',
        amount: '10.00',
        cardToken: CARD_TOKEN,
        cardType: 'DEBIT',
        networkType: 'MASTERCARD',
        tokenExpiry: '2030-12',
        cryptogram: CRYPTOGRAM,
      },
    });
    await stack.waitForStatus('sec_card', 'PENDING');
    const open = await secrets('sec_card');
    assert.deepEqual(Object.keys(open ?? {}).sort(), ['cardToken', 'cryptogram']);
    for (const sealed of Object.values(open ?? {})) {
      assert.equal(sealed.kid, 'dev-1');
      assert.equal(Buffer.from(sealed.iv, 'base64').length, 12, 'a 96-bit GCM nonce');
      assert.equal(Buffer.from(sealed.tag, 'base64').length, 16, 'a GCM tag');
    }
    const text = await rowText('sec_card');
    assert.ok(
      !text.includes(CARD_TOKEN) && !text.includes(CRYPTOGRAM),
      'nothing in the clear anywhere in the row',
    );
    assert.notEqual(open?.['cardToken']?.iv, open?.['cryptogram']?.iv, 'each value has its own nonce');

    // The provider settles it as FAILED: terminal, so the secrets go.
    await stack.sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 120 });
    await stack.waitForStatus('sec_card', 'FAILED');
    await eventually(async () => ((await secrets('sec_card')) === null ? true : undefined), {
      what: 'secrets erased',
    });
  });

  it('stores the v2 transfer token encrypted and erases it at SUCCESS', async () => {
    const minted = (await stack.sandboxCall('POST', '/__sandbox/transfer-tokens', {
      transfer_id: 'sec_upi',
      vpa: 'success@upi',
    })) as { transfer_token: string };
    await stack.send({
      type: 'payout.validated_upi_payout',
      data: { transferId: 'sec_upi', amount: '5.00', transferToken: minted.transfer_token },
    });
    await stack.waitForStatus('sec_upi', 'SUCCESS');
    await eventually(async () => ((await secrets('sec_upi')) === null ? true : undefined), {
      what: 'token erased',
    });
    assert.ok(!(await rowText('sec_upi')).includes(minted.transfer_token));
  });
});
