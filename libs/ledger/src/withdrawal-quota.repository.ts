import type pg from 'pg';

/** The provider allows 3 self withdrawals a day; the day is India's (Asia/Kolkata). */
export const WITHDRAWALS_PER_DAY = 3;

export class WithdrawalQuotaRepository {
  /**
   * tryConsume: takes one withdrawal of today's quota for the account, atomically, in the
   * caller's transaction. Returns false, changing nothing, when the quota is used up.
   */
  async tryConsume(db: pg.PoolClient, accountId: string, limit = WITHDRAWALS_PER_DAY): Promise<boolean> {
    const { rowCount } = await db.query(
      /* sql: withdrawalQuota.tryConsume */ `INSERT INTO withdrawal_quota (account_id, day, used)
       VALUES ($1, (now() AT TIME ZONE 'Asia/Kolkata')::date, 1)
       ON CONFLICT (account_id, day) DO UPDATE SET used = withdrawal_quota.used + 1
        WHERE withdrawal_quota.used < $2`,
      [accountId, limit],
    );
    return rowCount === 1;
  }
}
