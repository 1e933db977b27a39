import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 30, defect 3: a query with side effects (beneficiary.create, beneficiary.delete,
 * query.sdk_token) is recorded by its request id before the provider is called, and its answer
 * after, so a redelivered or repeated query gets the recorded answer and the provider is not
 * called again. Not a payout: nothing here is read by the ledger.
 *
 * `request_hash` is keyed (HMAC, the ledger's request-hash key): the same id with another request
 * is refused. `answer` is sealed (AES-256-GCM, LEDGER_ENCRYPTION_KEY): an SDK token is a secret,
 * and a beneficiary answer holds masked personal data; NULL while the call is under way (or was
 * cut short by a crash: then its outcome is unknown here). Rows older than QUERY_ANSWERS_KEEP_MS
 * are deleted by the queries role (the index on created_at).
 */
export class QueryAnswers1764670000000 implements MigrationInterface {
  name = 'QueryAnswers1764670000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE query_answer (
        account_id    TEXT        NOT NULL,
        request_id    TEXT        NOT NULL,
        type          TEXT        NOT NULL,
        request_hash  TEXT        NOT NULL,
        answer        JSONB,
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        answered_at   TIMESTAMPTZ,
        PRIMARY KEY (account_id, request_id)
      )`);
    await q.query(`CREATE INDEX query_answer_created_at_idx ON query_answer (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS query_answer`);
  }
}
