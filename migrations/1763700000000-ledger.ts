import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The ledger, first cut (see docs/adr/0003-ledger-schema.md).
 *
 * - Identity is (account_id, transfer_id): the idempotency key of every payout command.
 * - Amounts are NUMERIC(14,2): never floating point.
 * - `version` bumps on every state change; events are `<id>:<version>`.
 * - Sensitive request fields (transfer token, card token, cryptogram) live encrypted in
 *   `request_secrets`, separate from the normalised `request`, so erasing them at a terminal
 *   state is one column update.
 * - The outbox is ordered per key by `id`; the relay only ever publishes the head row of a key.
 */
export class Ledger1763700000000 implements MigrationInterface {
  name = 'Ledger1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payout (
        id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id       TEXT        NOT NULL,
        transfer_id      TEXT        NOT NULL,
        kind             TEXT        NOT NULL CHECK (kind IN (
                           'standard_transfer', 'direct_transfer', 'validated_upi_payout',
                           'card_payout', 'internal_transfer', 'self_withdrawal')),
        request_hash     TEXT        NOT NULL,
        request          JSONB       NOT NULL,
        request_secrets  JSONB,
        amount           NUMERIC(14,2) NOT NULL CHECK (amount > 0),
        status           TEXT        NOT NULL DEFAULT 'RECEIVED' CHECK (status IN (
                           'RECEIVED', 'SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS', 'FAILED',
                           'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION')),
        version          INTEGER     NOT NULL DEFAULT 1,
        attempt          INTEGER     NOT NULL DEFAULT 0,
        status_code      TEXT,
        reason           TEXT,
        reference_id     TEXT,
        svc_transfer_id  TEXT,
        utr              TEXT,
        last_error       JSONB,
        request_id       TEXT,
        next_check_at    TIMESTAMPTZ,
        check_count      INTEGER     NOT NULL DEFAULT 0,
        lease_owner      TEXT,
        lease_until      TIMESTAMPTZ,
        created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT payout_identity UNIQUE (account_id, transfer_id)
      )`);
    // The executor's queue: new work, oldest first.
    await q.query(`CREATE INDEX payout_received_idx ON payout (created_at) WHERE status = 'RECEIVED'`);
    // The reconciler's queue: unclear rows by due time.
    await q.query(`
      CREATE INDEX payout_due_check_idx ON payout (next_check_at)
        WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN')`);

    await q.query(`
      CREATE TABLE batch (
        id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id         TEXT        NOT NULL,
        batch_transfer_id  TEXT        NOT NULL,
        batch_format       TEXT        NOT NULL CHECK (batch_format IN (
                             'BENEFICIARY_ID', 'BANK_ACCOUNT', 'UPI', 'WALLET_A', 'WALLET_B')),
        request_hash       TEXT        NOT NULL,
        entry_count        INTEGER     NOT NULL CHECK (entry_count BETWEEN 1 AND 500),
        total_amount       NUMERIC(16,2) NOT NULL,
        status             TEXT        NOT NULL DEFAULT 'RECEIVED' CHECK (status IN (
                             'RECEIVED', 'SUBMITTING', 'PROCESSING', 'UNKNOWN', 'COMPLETED',
                             'FAILED', 'REJECTED', 'REQUIRES_ATTENTION')),
        version            INTEGER     NOT NULL DEFAULT 1,
        attempt            INTEGER     NOT NULL DEFAULT 0,
        reference_id       TEXT,
        status_code        TEXT,
        reason             TEXT,
        last_error         JSONB,
        request_id         TEXT,
        next_check_at      TIMESTAMPTZ,
        check_count        INTEGER     NOT NULL DEFAULT 0,
        lease_owner        TEXT,
        lease_until        TIMESTAMPTZ,
        created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT batch_identity UNIQUE (account_id, batch_transfer_id)
      )`);
    await q.query(`CREATE INDEX batch_received_idx ON batch (created_at) WHERE status = 'RECEIVED'`);
    await q.query(`
      CREATE INDEX batch_due_check_idx ON batch (next_check_at)
        WHERE status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN')`);

    await q.query(`
      CREATE TABLE batch_item (
        batch_id      BIGINT      NOT NULL REFERENCES batch (id) ON DELETE CASCADE,
        transfer_id   TEXT        NOT NULL,
        position      INTEGER     NOT NULL,
        amount        NUMERIC(14,2) NOT NULL CHECK (amount > 0),
        entry         JSONB       NOT NULL,
        status        TEXT        NOT NULL DEFAULT 'RECEIVED',
        version       INTEGER     NOT NULL DEFAULT 1,
        reference_id  TEXT,
        utr           TEXT,
        reason        TEXT,
        updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (batch_id, transfer_id)
      )`);

    await q.query(`
      CREATE TABLE outbox (
        id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        message_key   TEXT        NOT NULL,
        event_id      TEXT        NOT NULL,
        event_type    TEXT        NOT NULL,
        topic         TEXT        NOT NULL,
        payload       JSONB       NOT NULL,
        headers       JSONB       NOT NULL DEFAULT '{}'::jsonb,
        state         TEXT        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'published', 'dead')),
        attempts      INTEGER     NOT NULL DEFAULT 0,
        last_error    TEXT,
        available_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        published_at  TIMESTAMPTZ
      )`);
    // Per-key head lookup for the relay and the backlog gauge.
    await q.query(
      `CREATE INDEX outbox_unpublished_idx ON outbox (message_key, id) WHERE state <> 'published'`,
    );
    await q.query(`CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE state = 'published'`);
    // Re-emitting the same state (a duplicate command) must not create a second row per event id.
    await q.query(`CREATE UNIQUE INDEX outbox_event_pending_uq ON outbox (event_id) WHERE state = 'pending'`);
    // The relay wakes on this instead of polling tightly.
    await q.query(`
      CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('outbox', '');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
        FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`);

    await q.query(`
      CREATE TABLE withdrawal_quota (
        account_id  TEXT    NOT NULL,
        day         DATE    NOT NULL,
        used        INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
        PRIMARY KEY (account_id, day)
      )`);

    await q.query(`
      CREATE TABLE dead_letter (
        id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic       TEXT        NOT NULL,
        partition   INTEGER     NOT NULL,
        "offset"    TEXT        NOT NULL,
        reason      TEXT        NOT NULL,
        detail      JSONB,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT dead_letter_position UNIQUE (topic, partition, "offset")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS dead_letter`);
    await q.query(`DROP TABLE IF EXISTS withdrawal_quota`);
    await q.query(`DROP TRIGGER IF EXISTS outbox_notify ON outbox`);
    await q.query(`DROP FUNCTION IF EXISTS outbox_notify()`);
    await q.query(`DROP TABLE IF EXISTS outbox`);
    await q.query(`DROP TABLE IF EXISTS batch_item`);
    await q.query(`DROP TABLE IF EXISTS batch`);
    await q.query(`DROP TABLE IF EXISTS payout`);
  }
}
