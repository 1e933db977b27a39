import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Registry } from 'prom-client';
import {
  BatchRepository,
  HistoryRepository,
  PayoutLedger,
  PayoutRepository,
  type WebhookFields,
  WebhookRepository,
} from '#ledger';
import { OutboxRepository } from '#outbox';
import { WebhookHintWorker, WebhookMetrics } from '#pipeline';
import { webhookMeaning } from '#provider-client/testing';
import { capturingLogger, createTestDatabase, eventually, type TestDatabase } from '#test-support';

// Issue 29, defect 2: ids admitted twice before the namespace was one (a single payout X and a
// batch entry X of one account, rows written around today's intake here). A genuine v2 webhook of
// entry X (REJECTED, same amount) must never be applied to the PENDING single payout X: it binds
// to the transfer holding the id (transfer_identity), or to the batch it names.
describe('webhook binding: one namespace of transfer ids', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let worker: WebhookHintWorker;
  const webhooks = new WebhookRepository();
  let n = 0;

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    const { logger } = capturingLogger('error');
    worker = new WebhookHintWorker(
      {
        pool,
        webhooks,
        payouts: new PayoutRepository(),
        batches: new BatchRepository(),
        ledger: new PayoutLedger({
          pool,
          outbox: new OutboxRepository(),
          history: new HistoryRepository(),
          logger,
        }),
        outbox: new OutboxRepository(),
        metrics: new WebhookMetrics(new Registry()),
        logger,
        provider: { meaning: webhookMeaning, balanceRefused: () => undefined },
      },
      {
        leaseMs: 30_000,
        batchSize: 10,
        concurrency: 1,
        pollMs: 1_000,
        retryMs: 1_000,
        giveUpMs: 600_000,
        unmatchedRetryMs: 1_000,
        unmatchedKeepMs: 600_000,
        retentionMs: 600_000,
        reopenLimit: 3,
        reopenPeriodMs: 3_600_000,
      },
    );
    worker.start();
  });
  after(async () => {
    await worker?.stop();
    await pool?.end();
    await db?.drop();
  });

  /** A PENDING single payout X and a PROCESSING batch with entry X, the entry registered first. */
  async function twins(id: string, payoutApi: 'v1' | 'v2', registered: 'entry' | 'none'): Promise<void> {
    await pool.query(
      `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, version, provider_api)
       VALUES ('acc', $1, 'standard_transfer', 'h', '{}', 10, 'PENDING', 3, $2)`,
      [id, payoutApi],
    );
    const b = await pool.query<{ id: string }>(
      `INSERT INTO batch (account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount,
                          status, version, provider_api)
       VALUES ('acc', $1, 'BENEFICIARY_ID', 'h', 1, 10, 'PROCESSING', 3, 'v2') RETURNING id`,
      [`${id}_batch`],
    );
    await pool.query(
      `INSERT INTO batch_item (batch_id, transfer_id, position, amount, entry) VALUES ($1, $2, 0, 10, '{}')`,
      [b.rows[0]!.id, id],
    );
    if (registered === 'entry') {
      await pool.query(
        `INSERT INTO transfer_identity (account_id, transfer_id, batch_id) VALUES ('acc', $1, $2)`,
        [id, b.rows[0]!.id],
      );
    }
  }

  async function deliver(id: string, fields: WebhookFields, batchTransferId: string | null): Promise<string> {
    const webhookId = await webhooks.insert(pool, {
      accountId: 'acc',
      apiVersion: 'v2',
      identity: `ident_${n++}`,
      event: 'TRANSFER_REJECTED',
      transferId: id,
      batchTransferId,
      fields: { transferId: id, ...fields },
      eventTime: new Date(),
    });
    assert.ok(webhookId);
    worker.wake();
    return eventually(
      async () =>
        (
          await pool.query<{ outcome: string | null }>(
            `SELECT outcome FROM provider_webhook WHERE id = $1 AND state <> 'new'`,
            [webhookId],
          )
        ).rows[0]?.outcome ?? undefined,
      { what: `webhook ${webhookId} settled` },
    );
  }

  const payoutStatus = async (id: string) =>
    (await pool.query<{ status: string }>(`SELECT status FROM payout WHERE transfer_id = $1`, [id])).rows[0]
      ?.status;

  const ENTRY_REJECTED: WebhookFields = { status: 'REJECTED', amount: '10', svcTransferId: '880001' };

  it("a v2 webhook naming the entry's batch: the batch is checked, the single payout untouched", async () => {
    await twins('bind_1', 'v1', 'none');
    assert.equal(await deliver('bind_1', ENTRY_REJECTED, 'bind_1_batch'), 'recheck_batch');
    assert.equal(await payoutStatus('bind_1'), 'PENDING');
  });

  it('an id the registry gives to a batch entry: the batch is checked, never the single payout (same generation)', async () => {
    await twins('bind_2', 'v2', 'entry');
    assert.equal(await deliver('bind_2', ENTRY_REJECTED, null), 'recheck_batch');
    assert.equal(await payoutStatus('bind_2'), 'PENDING');
  });

  it('an unregistered twin on the other generation, no provider id on the row: asked, never applied', async () => {
    await twins('bind_3', 'v1', 'none');
    assert.equal(await deliver('bind_3', ENTRY_REJECTED, null), 'recheck');
    assert.equal(await payoutStatus('bind_3'), 'PENDING');
  });
});
