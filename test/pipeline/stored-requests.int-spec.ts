import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PayoutRepository } from '#ledger';
import { startStack, type Stack } from '#test-support';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { directTransfer, ACCOUNTS, metric } from '../reconciliation/helpers.js';

// Intake decodes every command with the contract's schema before it stores the request; the
// executor decodes the stored request again before it sends it. A row that no longer decodes (a
// schema change, a row edited by hand) must be an error for that row alone: not sent, handed to a
// person, and the rows claimed with it are sent as usual.
describe('a stored request that no longer decodes', () => {
  let stack: Stack;
  let pool: pg.Pool;
  let service: ServiceApp;
  const payouts = new PayoutRepository();
  // The ledger's own insert (an internal of libs/ledger), reached directly as a fixture.
  const moves = new PayoutMoves();

  before(async () => {
    stack = await startStack();
    pool = new pg.Pool({ connectionString: stack.db.url, max: 2 });
    service = await stack.startService();
  });
  after(async () => {
    await pool?.end();
    await stack?.close();
  });

  it('goes to REQUIRES_ATTENTION unsent, and the payouts around it are paid', async () => {
    await stack.send(directTransfer('sr_ok_1', ACCOUNTS.success));
    const first = await stack.waitForStatus('sr_ok_1', 'SUCCESS');
    const accountId = first.data.accountId;

    // Written behind intake's back, as a hand edit or an old schema would leave them.
    const stored = (transferId: string, kind: 'direct_transfer' | 'card_payout', request: object) => ({
      accountId,
      transferId,
      kind,
      requestHash: `h-${transferId}`,
      request: { transferId, amount: '10.00', ...request },
      requestSecrets: null,
      amount: '10.00',
      requestId: null,
    });
    await moves.insertNew(pool, [
      // beneDetails is required.
      stored('sr_bad_1', 'direct_transfer', { beneDetails: undefined, transferMode: 'banktransfer' }),
      // The card token is a secret: its sealed copy is gone.
      stored('sr_bad_2', 'card_payout', { cardType: 'CREDIT' }),
    ]);
    await stack.send(directTransfer('sr_ok_2', ACCOUNTS.success));

    for (const id of ['sr_bad_1', 'sr_bad_2']) {
      const e = await stack.waitForStatus(id, 'REQUIRES_ATTENTION');
      assert.equal(e.data.reason, 'stored_request_invalid', id);
      assert.deepEqual(
        stack.eventsOf(id).map((x) => x.data.status),
        ['SUBMITTING', 'REQUIRES_ATTENTION'],
        id,
      );
    }
    await stack.waitForStatus('sr_ok_2', 'SUCCESS');

    const bad1 = await payouts.findOne(pool, accountId, 'sr_bad_1');
    assert.equal(bad1?.lastError?.['sent'], false);
    assert.match(String(bad1?.lastError?.['message']), /\/data must have required property 'beneDetails'/);
    const bad2 = await payouts.findOne(pool, accountId, 'sr_bad_2');
    assert.match(String(bad2?.lastError?.['message']), /\/data must have required property 'cardToken'/);
    assert.equal(bad2?.lastError?.['endpoint'], 'cardpay');
    // Counted like every payout handed to a person, whoever hands it over (alerts watch this).
    assert.equal(
      await metric(service.url, 'payouts_requires_attention_total', { reason: 'stored_request_invalid' }),
      2,
    );
  });
});
