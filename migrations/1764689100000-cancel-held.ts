import { type MigrationInterface, type QueryRunner } from 'typeorm';

const BEFORE = `'recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge', 'ack_confirm',
                           'bene_create', 'bene_delete', 'bene_approve', 'bene_reject', 'token_issue', 'token_revoke'`;

/**
 * Issue 32: an operator may cancel a payout held for funds (HELD_FOR_FUNDS: never sent), which
 * ends REJECTED with reason `cancelled_while_held`; the operator's action is recorded as every
 * other (`operator_action.action` gains `cancel_held`).
 */
export class CancelHeld1764689100000 implements MigrationInterface {
  name = 'CancelHeld1764689100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN (${BEFORE}, 'cancel_held'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM operator_action WHERE action = 'cancel_held'`);
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check CHECK (action IN (${BEFORE}))`,
    );
  }
}
