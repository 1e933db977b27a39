import type pg from 'pg';
import { type ProviderSubState } from '#contracts';
import { qualify } from './sql.js';

type Db = pg.Pool | pg.PoolClient;

export type WebhookApiVersion = 'v1' | 'v2';
export type WebhookState = 'new' | 'waiting' | 'unmatched' | 'done';

/**
 * What a verified webhook said, as strings (v2 numbers and booleans are written as text): ids,
 * codes, status and amount. No signature, no delivery timestamp.
 */
export interface WebhookFields {
  readonly transferId?: string;
  readonly batchTransferId?: string;
  readonly referenceId?: string;
  /** v2: the provider's own id of the transfer (`cf_transfer_id`), the payout's svcTransferId. */
  readonly svcTransferId?: string;
  readonly utr?: string;
  readonly acknowledged?: string;
  readonly reason?: string;
  readonly status?: string;
  /** v2: the provider's status code (SENT_TO_BENEFICIARY, COMPLETED, ...). */
  readonly statusCode?: string;
  readonly amount?: string;
  readonly eventTime?: string;
  /**
   * A sub-state the webhook announces instead of a status (issue 29: TRANSFER_APPROVED, read by
   * the connector as `approved`).
   */
  readonly subState?: ProviderSubState;
  /** v2: the transfer's fee (issue 32), decimal text: written onto the payout the webhook settles. */
  readonly feeCharge?: string;
  readonly feeTax?: string;
}

export interface NewWebhook {
  readonly accountId: string;
  readonly apiVersion: WebhookApiVersion;
  /** Hash of the account and the webhook's fields: a redelivery has the same one. */
  readonly identity: string;
  readonly event: string;
  readonly transferId: string | null;
  readonly batchTransferId: string | null;
  readonly fields: WebhookFields;
  readonly eventTime: Date | null;
}

export interface WebhookRow extends NewWebhook {
  readonly id: string;
  readonly receivedAt: Date;
  readonly state: WebhookState;
  readonly outcome: string | null;
  /** Times a worker has claimed it (this claim included). */
  readonly attempts: number;
}

const COLUMNS = `id, account_id, api_version, identity, event, transfer_id, batch_transfer_id, fields, event_time,
  received_at, state, outcome, attempts`;

interface RawWebhook {
  id: string;
  account_id: string;
  api_version: WebhookApiVersion;
  identity: string;
  event: string;
  transfer_id: string | null;
  batch_transfer_id: string | null;
  fields: WebhookFields;
  event_time: Date | null;
  received_at: Date;
  state: WebhookState;
  outcome: string | null;
  attempts: number;
}

function toRow(r: RawWebhook): WebhookRow {
  return {
    id: String(r.id),
    accountId: r.account_id,
    apiVersion: r.api_version,
    identity: r.identity,
    event: r.event,
    transferId: r.transfer_id,
    batchTransferId: r.batch_transfer_id,
    fields: r.fields,
    eventTime: r.event_time,
    receivedAt: r.received_at,
    state: r.state,
    outcome: r.outcome,
    attempts: r.attempts,
  };
}

/** Every statement on `provider_webhook` (ADR 0013). */
export class WebhookRepository {
  /** insert: the webhook, once; undefined when its identity is already kept (a redelivery). */
  async insert(db: Db, w: NewWebhook): Promise<string | undefined> {
    const { rows } = await db.query<{ id: string }>(
      /* sql: webhook.insert */ `INSERT INTO provider_webhook (account_id, api_version, identity, event, transfer_id, batch_transfer_id, fields, event_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (account_id, identity) DO NOTHING
       RETURNING id`,
      [
        w.accountId,
        w.apiVersion,
        w.identity,
        w.event,
        w.transferId,
        w.batchTransferId,
        JSON.stringify(w.fields),
        w.eventTime,
      ],
    );
    return rows[0] ? String(rows[0].id) : undefined;
  }

  /**
   * claimDue: up to `limit` webhooks to look at now, oldest first. The claim pushes
   * next_attempt_at out by the lease, so no other worker takes one meanwhile; a worker that dies
   * leaves it to come back after the lease.
   */
  async claimDue(db: Db, leaseMs: number, limit: number): Promise<WebhookRow[]> {
    const { rows } = await db.query<RawWebhook>(
      /* sql: webhook.claimDue */ `UPDATE provider_webhook w
          SET next_attempt_at = now() + make_interval(secs => $1::double precision / 1000),
              attempts = w.attempts + 1
        WHERE w.id IN (SELECT id FROM provider_webhook
                        WHERE state <> 'done' AND next_attempt_at <= now()
                        ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING ${qualify(COLUMNS, 'w')}`,
      [leaseMs, limit],
    );
    return rows.map(toRow).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** settle: what came of a webhook; `retryInMs` (not done) is when to look again. */
  async settle(
    db: Db,
    id: string,
    state: WebhookState,
    outcome: string,
    retryInMs: number | null,
  ): Promise<void> {
    await db.query(
      /* sql: webhook.settle */ `UPDATE provider_webhook
          SET state = $2, outcome = $3,
              next_attempt_at = CASE WHEN $4::double precision IS NULL THEN next_attempt_at
                                     ELSE now() + make_interval(secs => $4::double precision / 1000) END,
              processed_at = CASE WHEN $2 = 'done' THEN now() ELSE NULL END
        WHERE id = $1`,
      [id, state, outcome, retryInMs],
    );
  }

  /** findOne: a kept webhook by its identity (operators and tests). */
  async findByIdentity(db: Db, accountId: string, identity: string): Promise<WebhookRow | undefined> {
    const { rows } = await db.query<RawWebhook>(
      /* sql: webhook.findByIdentity */ `SELECT ${COLUMNS} FROM provider_webhook WHERE account_id = $1 AND identity = $2`,
      [accountId, identity],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** ofTransfer: every webhook kept for a transferId, in arrival order. */
  async ofTransfer(db: Db, accountId: string, transferId: string): Promise<WebhookRow[]> {
    const { rows } = await db.query<RawWebhook>(
      /* sql: webhook.ofTransfer */ `SELECT ${COLUMNS} FROM provider_webhook WHERE account_id = $1 AND transfer_id = $2 ORDER BY id`,
      [accountId, transferId],
    );
    return rows.map(toRow);
  }

  /**
   * reopensSince: how many webhooks reopened this payout in the last `periodMs` (the bound on
   * reopens, WEBHOOKS_REOPEN_LIMIT; a partial index holds only the reopening ones).
   */
  async reopensSince(db: Db, accountId: string, transferId: string, periodMs: number): Promise<number> {
    const { rows } = await db.query<{ count: string }>(
      /* sql: webhook.reopensSince */ `SELECT count(*) AS count FROM provider_webhook
        WHERE account_id = $1 AND transfer_id = $2 AND outcome = 'reopened'
          AND processed_at > now() - make_interval(secs => $3::double precision / 1000)`,
      [accountId, transferId, periodMs],
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** backlog: webhooks not done yet, by state (a gauge). */
  async backlog(db: Db): Promise<Array<{ state: WebhookState; count: number }>> {
    const { rows } = await db.query<{ state: WebhookState; count: string }>(
      /* sql: webhook.backlog */ `SELECT state, count(*) AS count FROM provider_webhook WHERE state <> 'done' GROUP BY state`,
    );
    return rows.map((r) => ({ state: r.state, count: Number(r.count) }));
  }

  /**
   * purgeDone: forgets settled webhooks older than the retention, a bounded number at a time.
   * The retention is also how long a redelivery is recognised as one.
   */
  async purgeDone(db: Db, retentionMs: number, limit: number): Promise<number> {
    const { rowCount } = await db.query(
      /* sql: webhook.purgeDone */ `DELETE FROM provider_webhook WHERE id IN (
          SELECT id FROM provider_webhook
           WHERE state = 'done' AND processed_at < now() - make_interval(secs => $1::double precision / 1000)
           ORDER BY processed_at LIMIT $2)`,
      [retentionMs, limit],
    );
    return rowCount ?? 0;
  }
}
