import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecretKey } from 'node:crypto';
import pg from 'pg';
import { Registry } from 'prom-client';
import { type PayoutEvent } from '#contracts';
import {
  BatchLedger,
  BatchRepository,
  DeadLetterRepository,
  HistoryRepository,
  PayoutLedger,
  PayoutRepository,
  SecretsCipher,
  WithdrawalQuotaRepository,
} from '#ledger';
import { OutboxRepository } from '#outbox';
import { IntakeService, PipelineMetrics } from '#pipeline';
import { capturingLogger, createTestDatabase, type TestDatabase } from '#test-support';

// Issue 29, defect 2: the provider knows one transfer per (account, transfer id); a single payout
// X and a batch entry X of one account are the same transfer to it. Whichever comes second is
// refused at intake (a conflict event its producer can read), never recorded nor sent.
describe('one namespace of transfer ids across single payouts and batch entries', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let offset = 0;

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 6 });
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** One instance's intake, on the shared database. */
  function intake(): IntakeService {
    const outbox = new OutboxRepository();
    const history = new HistoryRepository();
    const { logger } = capturingLogger('error');
    return new IntakeService({
      payouts: new PayoutRepository(),
      ledger: new PayoutLedger({ pool, outbox, history, logger }),
      batchLedger: new BatchLedger({ pool, outbox, history, logger }),
      batches: new BatchRepository(),
      quota: new WithdrawalQuotaRepository(),
      deadLetters: new DeadLetterRepository(),
      outbox,
      dlq: { publish: () => Promise.resolve() },
      cipher: new SecretsCipher('k1', Buffer.alloc(32, 7)),
      metrics: new PipelineMetrics(new Registry()),
      logger,
      defaultAccountId: 'acc',
      knownAccounts: new Set(['acc']),
      deadLetterKey: createSecretKey(Buffer.alloc(32, 9)),
    });
  }

  const payout = (transferId: string, amount = '10.00') => ({
    key: transferId,
    command: {
      type: 'payout.standard_transfer',
      data: { transferId, beneId: 'BENE1', amount, transferMode: 'banktransfer' },
    },
  });
  const batch = (batchTransferId: string, entryIds: readonly string[]) => ({
    key: batchTransferId,
    command: {
      type: 'payout.batch_transfer',
      data: {
        batchTransferId,
        batchFormat: 'BENEFICIARY_ID',
        entries: entryIds.map((transferId) => ({
          transferId,
          amount: '5.00',
          beneId: 'BENE1',
          transferMode: 'banktransfer',
        })),
      },
    },
  });
  const send = (service: IntakeService, ...cmds: Array<{ key: string; command: object }>) =>
    service.ingest(
      'payouts.commands',
      0,
      cmds.map((c) => ({
        key: Buffer.from(c.key),
        value: Buffer.from(JSON.stringify(c.command)),
        offset: String(offset++),
      })),
    );

  const payoutIds = async (transferId: string) =>
    (await pool.query('SELECT id FROM payout WHERE transfer_id = $1', [transferId])).rowCount;
  const batchIds = async (batchTransferId: string) =>
    (await pool.query('SELECT id FROM batch WHERE batch_transfer_id = $1', [batchTransferId])).rowCount;
  const entryRows = async (transferId: string) =>
    (await pool.query('SELECT batch_id FROM batch_item WHERE transfer_id = $1', [transferId])).rowCount;
  /** Read without the field's type, so this file also builds against the code before the fix. */
  const heldBy = (e: PayoutEvent) => (e.data as Record<string, unknown>)['heldBy'];
  const conflictsOn = async (subject: string) =>
    (
      await pool.query<{ event_id: string; message_key: string; payload: PayoutEvent }>(
        `SELECT event_id, message_key, payload FROM outbox
          WHERE event_type = 'payouts.command.conflict' AND payload->>'subject' = $1 ORDER BY id`,
        [subject],
      )
    ).rows;

  it('a single payout X, then a batch with an entry X: the batch is refused whole, naming the entry', async () => {
    const service = intake();
    await send(service, payout('ns_p1'));
    const r = await send(service, batch('ns_b1', ['ns_b1_a', 'ns_p1', 'ns_b1_c']));
    assert.equal(r.accepted, 0);
    assert.equal(r.conflicts, 1);
    assert.equal(await batchIds('ns_b1'), 0, 'no batch row');
    assert.equal(await entryRows('ns_b1_a'), 0, 'no entry of it');
    assert.equal(await entryRows('ns_p1'), 0);
    const [c, ...more] = await conflictsOn('ns_b1');
    assert.equal(more.length, 0);
    assert.ok(c);
    assert.equal(c.message_key, 'batch/acc/ns_b1', "on the refused command's own key");
    assert.match(c.event_id, /^batch\/acc\/ns_b1:conflict:[0-9a-f]{16}$/);
    assert.equal(c.payload.data.reason, 'transfer_id_in_use');
    assert.equal(c.payload.data.status, 'REJECTED');
    assert.equal(c.payload.data.kind, 'batch_transfer');
    assert.deepEqual(heldBy(c.payload), { transferId: 'ns_p1', by: 'payout' });
    // The ids the refused batch would have taken stay free.
    await send(service, payout('ns_b1_a'));
    assert.equal(await payoutIds('ns_b1_a'), 1);
  });

  it('a batch entry X, then a single payout X: the payout is refused, never recorded', async () => {
    const service = intake();
    await send(service, batch('ns_b2', ['ns_e2']));
    const r = await send(service, payout('ns_e2'));
    assert.equal(r.accepted, 0);
    assert.equal(r.conflicts, 1);
    assert.equal(await payoutIds('ns_e2'), 0, 'no payout row: nothing to send');
    const [c] = await conflictsOn('ns_e2');
    assert.ok(c);
    assert.equal(c.message_key, 'payout/acc/ns_e2');
    assert.equal(c.payload.data.kind, 'standard_transfer');
    assert.equal(c.payload.data.reason, 'transfer_id_in_use');
    assert.deepEqual(heldBy(c.payload), { transferId: 'ns_e2', by: 'batch_entry', batchTransferId: 'ns_b2' });
  });

  it("an entry id held by another batch's entry: the second batch is refused", async () => {
    const service = intake();
    await send(service, batch('ns_b3', ['ns_e3']));
    await send(service, batch('ns_b4', ['ns_e4', 'ns_e3']));
    assert.equal(await batchIds('ns_b4'), 0);
    const [c] = await conflictsOn('ns_b4');
    assert.deepEqual(c && heldBy(c.payload), {
      transferId: 'ns_e3',
      by: 'batch_entry',
      batchTransferId: 'ns_b3',
    });
  });

  it('in one Kafka batch: the payout is admitted, the batch reusing its id refused', async () => {
    const service = intake();
    const r = await send(service, batch('ns_b5', ['ns_p5']), payout('ns_p5'));
    assert.equal(r.accepted, 1);
    assert.equal(r.conflicts, 1);
    assert.equal(await payoutIds('ns_p5'), 1);
    assert.equal(await batchIds('ns_b5'), 0);
  });

  it('a redelivered refusal is the same event; a corrected batch under the same batchTransferId is admitted', async () => {
    const service = intake();
    await send(service, payout('ns_p6'));
    await send(service, batch('ns_b6', ['ns_p6']));
    await send(service, batch('ns_b6', ['ns_p6']));
    const ids = (await conflictsOn('ns_b6')).map((c) => c.event_id);
    assert.equal(new Set(ids).size, 1, `one id: ${ids.join(', ')}`);
    const r = await send(service, batch('ns_b6', ['ns_e6']));
    assert.equal(r.accepted, 1);
    assert.equal(await batchIds('ns_b6'), 1);
  });

  it('two instances at once, a payout X and a batch with entry X: exactly one is admitted', async () => {
    for (let i = 0; i < 8; i++) {
      const id = `ns_race_${i}`;
      const [a, b] = [intake(), intake()];
      const results = await Promise.all(
        i % 2 === 0
          ? [send(a, payout(id)), send(b, batch(`ns_race_b${i}`, [id]))]
          : [send(b, batch(`ns_race_b${i}`, [id])), send(a, payout(id))],
      );
      const admitted = (await payoutIds(id))! + (await entryRows(id))!;
      assert.equal(admitted, 1, `${id}: one holder (${JSON.stringify(results)})`);
      assert.equal(
        results.reduce((n, r) => n + r.conflicts, 0),
        1,
        `${id}: one refusal`,
      );
    }
  });
});
