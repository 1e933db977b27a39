import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The provider's fee of each transfer (issue 32): its service charge and the tax on it, as the
 * provider reported them when the payout (or batch entry) settled, so finance can reconcile the
 * account's balance with what was paid. Exact decimals (numeric, never a float); NULL: not known
 * (a v1 payout, an answer without it, a row written before this). "0" is a known zero. Adding
 * nullable columns without a default rewrites nothing.
 */
export class TransferFees1764688000000 implements MigrationInterface {
  name = 'TransferFees1764688000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['payout', 'batch_item']) {
      await q.query(`
        ALTER TABLE ${table}
          ADD COLUMN fee_charge numeric CHECK (fee_charge >= 0),
          ADD COLUMN fee_tax numeric CHECK (fee_tax >= 0)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['payout', 'batch_item'])
      await q.query(`ALTER TABLE ${table} DROP COLUMN fee_charge, DROP COLUMN fee_tax`);
  }
}
