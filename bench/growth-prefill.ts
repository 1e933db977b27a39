/**
 * The prefilled ledger of `npm run bench:growth`: `payouts` payouts and `history` history rows,
 * made in SQL with generate_series, in the shapes production has:
 *   - created_at spread evenly over `months` months up to now, ids ascending with it;
 *   - accounts: `default` (most), `v2` (1 in 7), `acc3` (1 in 20);
 *   - kinds: 70 % standard transfers (request with a beneId among 50,000, so the bene history
 *     index has realistic lists), 20 % direct transfers (bene details), 10 % validated UPI;
 *   - statuses: SUCCESS about 91.5 % (with a UTR), FAILED 6 %, REJECTED 2 %, REVERSED 0.5 %,
 *     REQUIRES_ATTENTION 0.02 %; the newest 0.1 % still in flight (PENDING / UNKNOWN, checks due
 *     in an hour), as a live ledger has;
 *   - history: history/payouts rows per payout (the remainder to the first ones): RECEIVED,
 *     SUBMITTING, then PENDING / UNKNOWN, the last row its final status, seconds apart; in the
 *     month partitions (created here for the past months, as the maintenance job would have).
 * The payout indexes other than its constraints, and the history index, are dropped for the load
 * and built again after it (whatever the migrations define: read from the catalog first), which is
 * how a restore would do it and many times faster than maintaining them row by row.
 */
import type pg from 'pg';

export interface PrefillSizes {
  readonly payouts: number;
  readonly history: number;
  readonly months: number;
}

export interface PrefillTimings {
  readonly payoutsS: number;
  readonly historyS: number;
  readonly indexesS: number;
  readonly payoutBytes: number;
  readonly historyBytes: number;
}

const CHUNK = 1_000_000;

function seconds(t0: number): number {
  return (performance.now() - t0) / 1000;
}

export async function prefill(
  c: pg.Client,
  s: PrefillSizes,
  progress: (text: string) => void,
): Promise<PrefillTimings> {
  await c.query(`SET synchronous_commit = off`);
  await c.query(`SET maintenance_work_mem = '512MB'`);
  // Month partitions for the past months (the migration made this month's and the next ones').
  await c.query(
    `DO $$
     DECLARE m timestamp;
     BEGIN
       FOR i IN 1..${s.months} LOOP
         m := date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => i);
         IF to_regclass('state_history_' || to_char(m, 'YYYY_MM')) IS NULL THEN
           EXECUTE format('CREATE TABLE %I PARTITION OF state_history FOR VALUES FROM (%L) TO (%L)',
                          'state_history_' || to_char(m, 'YYYY_MM'), m AT TIME ZONE 'UTC',
                          (m + interval '1 month') AT TIME ZONE 'UTC');
         END IF;
       END LOOP;
     END $$`,
  );
  const { rows: idx } = await c.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename IN ('payout', 'state_history')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
  );
  for (const i of idx) await c.query(`DROP INDEX ${i.name}`);

  const P = s.payouts;
  const spanS = s.months * 30 * 86_400;
  let t0 = performance.now();
  for (let lo = 1; lo <= P; lo += CHUNK) {
    const hi = Math.min(P, lo + CHUNK - 1);
    await c.query(
      `INSERT INTO payout (id, account_id, transfer_id, kind, request_hash, request, amount, status, version, attempt,
                           status_code, reason, reference_id, utr, next_check_at, created_at, updated_at, state_changed_at,
                           provider_api)
       OVERRIDING SYSTEM VALUE
       SELECT g, acc, 'g-' || g, kind, md5(g::text),
              CASE WHEN kind = 'standard_transfer'
                   THEN jsonb_build_object('transferId', 'g-' || g, 'amount', amt::text, 'beneId', 'bene-' || (g % 50000),
                                           'transferMode', 'banktransfer', 'remarks', 'payout')
                   WHEN kind = 'direct_transfer'
                   THEN jsonb_build_object('transferId', 'g-' || g, 'amount', amt::text,
                                           'beneDetails', jsonb_build_object('name', 'Person ' || (g % 50000), 'ifsc', 'YESB0000262'))
                   ELSE jsonb_build_object('transferId', 'g-' || g, 'amount', amt::text, 'name', 'Person ' || (g % 50000)) END,
              amt, st, $2::int + CASE WHEN g <= $5::bigint THEN 1 ELSE 0 END, 1,
              CASE WHEN st = 'FAILED' THEN 'INSUFFICIENT_BALANCE' END,
              CASE WHEN st IN ('FAILED', 'REJECTED') THEN 'refused' END,
              CASE WHEN st <> 'REJECTED' THEN (1000000000 + g)::text END,
              CASE WHEN st IN ('SUCCESS', 'REVERSED') THEN 'UTR' || lpad(g::text, 12, '0') END,
              CASE WHEN st IN ('PENDING', 'UNKNOWN') THEN now() + interval '1 hour' END,
              at, at + interval '10 seconds', at + interval '10 seconds',
              CASE WHEN acc = 'v2' THEN 'v2' ELSE 'v1' END
         FROM generate_series($3::bigint, $4::bigint) g,
              LATERAL (SELECT now() - make_interval(secs => (($1::bigint - g)::float8 * ${spanS} / $1::bigint)) AS at,
                              ((g % 100000) + 100)::numeric(14, 2) AS amt,
                              CASE WHEN g % 20 = 0 THEN 'acc3' WHEN g % 7 = 0 THEN 'v2' ELSE 'default' END AS acc,
                              CASE WHEN g % 10 < 7 THEN 'standard_transfer' WHEN g % 10 < 9 THEN 'direct_transfer'
                                   ELSE 'validated_upi_payout' END AS kind,
                              CASE WHEN g > $1::bigint - $1::bigint / 1000 THEN (CASE WHEN g % 2 = 0 THEN 'PENDING' ELSE 'UNKNOWN' END)
                                   WHEN (g * 7919) % 10000 < 2 THEN 'REQUIRES_ATTENTION'
                                   WHEN (g * 7919) % 10000 < 602 THEN 'FAILED'
                                   WHEN (g * 7919) % 10000 < 802 THEN 'REJECTED'
                                   WHEN (g * 7919) % 10000 < 852 THEN 'REVERSED'
                                   ELSE 'SUCCESS' END AS st) x`,
      [P, Math.floor(s.history / P), lo, hi, s.history - Math.floor(s.history / P) * P],
    );
    progress(
      `    payouts ${hi.toLocaleString('en-US')} of ${P.toLocaleString('en-US')} (${seconds(t0).toFixed(0)} s)`,
    );
  }
  await c.query(`SELECT setval(pg_get_serial_sequence('payout', 'id'), $1)`, [P]);
  const payoutsS = seconds(t0);

  // Rows per payout: k, and one more for the first `extra` payouts.
  const k = Math.floor(s.history / P);
  const extra = s.history - k * P;
  t0 = performance.now();
  for (let lo = 1; lo <= P; lo += CHUNK) {
    const hi = Math.min(P, lo + CHUNK - 1);
    await c.query(
      `INSERT INTO state_history (subject, subject_id, account_id, transfer_id, from_status, to_status, version, cause,
                                  status_code, reference_id, utr, at)
       SELECT 'payout', p.id, p.account_id, p.transfer_id,
              CASE WHEN j = 1 THEN NULL ELSE (ARRAY['RECEIVED', 'SUBMITTING', 'PENDING', 'UNKNOWN', 'PENDING', 'UNKNOWN'])[1 + (j - 2) % 6] END,
              CASE WHEN j = n THEN p.status ELSE (ARRAY['RECEIVED', 'SUBMITTING', 'PENDING', 'UNKNOWN', 'PENDING', 'UNKNOWN'])[1 + (j - 1) % 6] END,
              j, CASE WHEN j = 1 THEN 'intake' WHEN j = 2 THEN 'executor' ELSE 'reconciler' END,
              CASE WHEN j = n THEN p.status_code END, CASE WHEN j > 2 THEN p.reference_id END,
              CASE WHEN j = n THEN p.utr END, p.created_at + make_interval(secs => 2 * (j - 1))
         FROM payout p, LATERAL (SELECT $1::int + CASE WHEN p.id <= $2 THEN 1 ELSE 0 END AS n) c,
              generate_series(1, c.n) j
        WHERE p.id BETWEEN $3 AND $4`,
      [k, extra, lo, hi],
    );
    progress(`    history for payouts up to ${hi.toLocaleString('en-US')} (${seconds(t0).toFixed(0)} s)`);
  }
  const historyS = seconds(t0);
  t0 = performance.now();
  for (const i of idx) {
    await c.query(i.def.replace(' ON ONLY ', ' ON ')); // a partitioned table's index: on every partition
    progress(`    index ${i.name} (${seconds(t0).toFixed(0)} s)`);
  }
  const indexesS = seconds(t0);
  const { rows } = await c.query<{ p: string; h: string }>(
    `SELECT pg_total_relation_size('payout')::text AS p,
            (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c WHERE c.relname LIKE 'state_history_%' AND c.relkind = 'r')::text AS h`,
  );
  return {
    payoutsS,
    historyS,
    indexesS,
    payoutBytes: Number(rows[0]?.p ?? 0),
    historyBytes: Number(rows[0]?.h ?? 0),
  };
}
