import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * ADR 0027, session 20: a batch is taken (its money out of the next reading's available balance)
 * when the provider has processed it, COMPLETED, not when it accepted it, PROCESSING: the provider
 * debits the entries as it processes them, after the acceptance (the sandbox after its batch
 * delay). A reading asked between the two did not show the batch, and the committed sum, which
 * stopped counting it at PROCESSING, let a later payout bounce (the chaos run's refusals "with a
 * call in the air at a reading"). The ledger now writes `taken_at` on COMPLETED only; this clears
 * it for the sent batches not COMPLETED, which count again as in doubt until they are.
 */
export class BatchTakenOnCompletion1764693200000 implements MigrationInterface {
  name = 'BatchTakenOnCompletion1764693200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE batch SET taken_at = NULL WHERE taken_at IS NOT NULL AND status <> 'COMPLETED'`);
  }

  async down(q: QueryRunner): Promise<void> {
    // As migration 1764692000000 wrote it: the time it was sent, for the sent ones that were PROCESSING.
    await q.query(
      `UPDATE batch b SET taken_at = b.sent_at
        WHERE b.taken_at IS NULL AND b.sent_at IS NOT NULL AND b.status NOT IN ('FAILED', 'REJECTED')
          AND EXISTS (SELECT 1 FROM state_history h
                       WHERE h.subject = 'batch' AND h.subject_id = b.id AND h.to_status = 'PROCESSING')`,
    );
  }
}
