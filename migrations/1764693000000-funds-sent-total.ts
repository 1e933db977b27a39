import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * ADR 0027, the committed sum's bound: what a funds round needs to know in one row, so that a round
 * of an account with room reads no payout but its candidates (the exact sum adds up every payout
 * taken since the reading, and grows with the burst between two readings).
 *
 * - `sent_total`: everything the funds rounds of the account ever sent (payouts' amounts, batches'
 *   totals), added by the round's own send, in its transaction, under the account's lock: it only
 *   grows.
 * - `ask_sent_total`, `ask_in_doubt`: at the moment a reading was asked, in the statement that
 *   took its time (one snapshot), `sent_total` and the sum of what was sent and not answered nor
 *   given back (the in-doubt rows). NULL for a reading recorded without them (before this
 *   migration, or a tool's): the round then uses the exact sum.
 *
 * `sent_total - ask_sent_total + ask_in_doubt` is never less than the exact committed sum: what
 * the exact sum counts was either sent after the ask (in the difference) or in doubt at it (taken
 * after the ask, or not taken yet). It is more when money was given back or taken before the
 * provider answered: a round that finds a candidate not fitting under it reads the exact sum.
 */
export class FundsSentTotal1764693000000 implements MigrationInterface {
  name = 'FundsSentTotal1764693000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE balance_reading
        ADD COLUMN sent_total     NUMERIC(20,2) NOT NULL DEFAULT 0 CHECK (sent_total >= 0),
        ADD COLUMN ask_sent_total NUMERIC(20,2),
        ADD COLUMN ask_in_doubt   NUMERIC(20,2),
        ADD CONSTRAINT balance_reading_ask_check
          CHECK ((ask_sent_total IS NULL) = (ask_in_doubt IS NULL)
                 AND (ask_sent_total IS NULL OR read_at IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE balance_reading
        DROP CONSTRAINT balance_reading_ask_check,
        DROP COLUMN ask_in_doubt,
        DROP COLUMN ask_sent_total,
        DROP COLUMN sent_total`);
  }
}
