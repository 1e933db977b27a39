import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Operators register and remove beneficiaries through the operations API: each is recorded in
 * `operator_action` (`bene_create`, `bene_delete`) with the beneficiary's id in `bene_id`, never
 * its details. Nullable, no default: adding it rewrites nothing.
 */
export class BeneficiaryActions1764430000001 implements MigrationInterface {
  name = 'BeneficiaryActions1764430000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE operator_action ADD COLUMN bene_id TEXT`);
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge',
                           'bene_create', 'bene_delete'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM operator_action WHERE action IN ('bene_create', 'bene_delete')`);
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge'))`,
    );
    await q.query(`ALTER TABLE operator_action DROP COLUMN IF EXISTS bene_id`);
  }
}
