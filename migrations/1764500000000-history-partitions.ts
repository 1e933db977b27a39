import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `state_history` partitioned by month of `at` (UTC), with a retention (issue 23, ADR 0016, amendment of 2026-11-25).
 *
 * - The table becomes `PARTITION BY RANGE (at)`: one partition per calendar month (UTC), named
 *   `state_history_YYYY_MM`, created ahead by `state_history_maintain`, plus
 *   `state_history_default`, which takes any row no month partition covers: a write never fails for
 *   lack of a partition. The maintenance job moves such rows into their month when it creates it.
 * - No primary key on the partitioned table: a unique index there must contain `at`, which adds
 *   nothing to the identity's uniqueness, costs every history row one more index entry on the hot
 *   path, and would have to be built over an existing table. `id` stays the identity (order of a
 *   timeline); the timeline index `(subject, subject_id, id)` is on every partition.
 * - An existing table is not copied. It is renamed `state_history_legacy` and attached whole as
 *   the partition `FROM (MINVALUE) TO (<first day of next month>)`: the rows stay where they are,
 *   its indexes are adopted (its old primary key stays on it alone), and this month's rows go on
 *   landing in it. Attaching checks every row against the bound, a sequential scan under an
 *   ACCESS EXCLUSIVE lock (history writes, and so every payout move, wait for it): the migration's
 *   whole cost, 1.6 s at 5 million rows on the bench box, so 15-20 s at 50 million (docs/BENCHMARKS.md,
 *   "Data growth"; docs/OPERATIONS.md, "State history: partitions and retention").
 *   An operator skips it by validating `CHECK (at < <bound>)` on the table beforehand, online
 *   (SHARE UPDATE EXCLUSIVE): the attach then proves the bound from that constraint and reads
 *   nothing. The legacy partition is retired like a month once its upper bound is old enough.
 * - `state_history_maintain(ahead, keep_months, retire)`: creates the partitions missing for
 *   this month, the next `ahead` months and every month that has rows in the default (moving
 *   them there: the default is normally empty, so creating a month never scans much), and,
 *   with `keep_months` > 0, detaches (`retire` = 'detach': moved to schema
 *   `state_history_archive` for the operator to dump and drop) or drops the partitions whose whole
 *   range is older than `keep_months` months. Partitions are attached, never created as
 *   `PARTITION OF` (SHARE UPDATE EXCLUSIVE on the table, not ACCESS EXCLUSIVE); a detach or drop
 *   takes ACCESS EXCLUSIVE briefly (the caller sets a lock_timeout). Its callers hold an advisory
 *   lock, so two instances never race (HistoryPartitionsRepository).
 */
export class HistoryPartitions1764500000000 implements MigrationInterface {
  name = 'HistoryPartitions1764500000000';

  async up(q: QueryRunner): Promise<void> {
    const [{ n }] = (await q.query(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM state_history LIMIT 1) s`,
    )) as [{ n: number }];
    // The old identity's sequence keeps the table's name unless renamed: the new table's takes it.
    await q.query(
      `DO $$ BEGIN EXECUTE format('ALTER SEQUENCE %s RENAME TO state_history_legacy_id_seq', pg_get_serial_sequence('state_history', 'id')); END $$`,
    );
    await q.query(`ALTER TABLE state_history RENAME TO state_history_legacy`);
    await q.query(`ALTER INDEX state_history_pkey RENAME TO state_history_legacy_pkey`);
    await q.query(`ALTER INDEX state_history_subject_idx RENAME TO state_history_legacy_subject_idx`);
    await q.query(`
      CREATE TABLE state_history (
        id           BIGINT GENERATED ALWAYS AS IDENTITY,
        subject      TEXT        NOT NULL CONSTRAINT state_history_subject_check CHECK (subject IN ('payout', 'batch', 'batch_entry')),
        subject_id   BIGINT      NOT NULL,
        account_id   TEXT        NOT NULL,
        transfer_id  TEXT        NOT NULL,
        from_status  TEXT,
        to_status    TEXT        NOT NULL,
        version      INTEGER     NOT NULL,
        cause        TEXT        NOT NULL CONSTRAINT state_history_cause_check CHECK (cause IN ('intake', 'executor', 'reconciler', 'webhook', 'operator')),
        reason       TEXT,
        status_code  TEXT,
        reference_id TEXT,
        utr          TEXT,
        operator_id  TEXT,
        approver_id  TEXT,
        proposal_id  BIGINT,
        at           TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT state_history_operator CHECK ((cause = 'operator') = (operator_id IS NOT NULL))
      ) PARTITION BY RANGE (at)`);
    await q.query(`CREATE INDEX state_history_subject_idx ON state_history (subject, subject_id, id)`);
    // The identity goes on from the old table's (ids order a timeline).
    await q.query(
      `SELECT setval(pg_get_serial_sequence('state_history', 'id'),
                     GREATEST(1, (SELECT last_value FROM state_history_legacy_id_seq)),
                     (SELECT is_called FROM state_history_legacy_id_seq))`,
    );
    if (n === 0) {
      await q.query(`DROP TABLE state_history_legacy`);
    } else {
      await q.query(`ALTER TABLE state_history_legacy ALTER COLUMN id DROP IDENTITY`);
      // Its checks keep their names, which are the new table's: the attach matches them by name.
      await q.query(`
        DO $$
        DECLARE
          bound timestamptz := (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
          pre   timestamptz;
        BEGIN
          -- An operator's validated CHECK (at < x) on the old table (docs/OPERATIONS.md): x may be
          -- later than next month; the bound must imply it for the attach to skip its scan.
          -- Only the documented form, a literal: anything else is ignored (the attach then scans).
          SELECT (regexp_match(pg_get_constraintdef(oid), '^CHECK \\(\\(at < ''([^'']+)''::timestamp with time zone\\)\\)$'))[1]::timestamptz INTO pre
            FROM pg_constraint
           WHERE conrelid = 'state_history_legacy'::regclass AND conname = 'state_history_legacy_bound'
             AND convalidated;
          IF pre IS NOT NULL AND pre > bound THEN
            bound := date_trunc('month', pre AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
            -- the first month boundary at or after the operator's bound
            IF bound < pre THEN
              bound := (date_trunc('month', pre AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
            END IF;
          END IF;
          EXECUTE format('ALTER TABLE state_history ATTACH PARTITION state_history_legacy FOR VALUES FROM (MINVALUE) TO (%L)', bound);
        END $$`);
    }
    await q.query(`CREATE TABLE state_history_default PARTITION OF state_history DEFAULT`);
    await q.query(`
      CREATE VIEW state_history_partitions AS
        SELECT c.relname::text AS name,
               pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' AS is_default,
               (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz AS lower,
               (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS upper
          FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'state_history'::regclass`);
    await q.query(`CREATE SCHEMA IF NOT EXISTS state_history_archive`);
    await q.query(`
      CREATE FUNCTION state_history_maintain(ahead integer, keep_months integer, retire text)
      RETURNS TABLE (action text, partition text, moved_rows bigint) LANGUAGE plpgsql AS $$
      DECLARE
        month0 timestamp := date_trunc('month', now() AT TIME ZONE 'UTC');
        m timestamp;
        lo timestamptz;
        hi timestamptz;
        part text;
        n bigint;
        r record;
      BEGIN
        IF retire NOT IN ('drop', 'detach') THEN RAISE EXCEPTION 'retire must be drop or detach, not %', retire; END IF;
        -- This month, the next \`ahead\`, and every month that has rows in the default (normally none).
        FOR m IN SELECT month0 + make_interval(months => i) FROM generate_series(0, ahead) i
                 UNION
                 SELECT DISTINCT date_trunc('month', d.at AT TIME ZONE 'UTC') FROM state_history_default d
                 ORDER BY 1 LOOP
          lo := m AT TIME ZONE 'UTC';
          hi := (m + interval '1 month') AT TIME ZONE 'UTC';
          CONTINUE WHEN EXISTS (SELECT 1 FROM state_history_partitions p
                                 WHERE NOT p.is_default AND (p.lower IS NULL OR p.lower < hi) AND p.upper > lo);
          part := 'state_history_' || to_char(m, 'YYYY_MM');
          EXECUTE format('CREATE TABLE %I (LIKE state_history INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
          -- Rows that landed in the default (the job did not run in time) move into their month;
          -- the lock keeps new ones out until the attach has checked the default.
          n := 0;
          IF EXISTS (SELECT 1 FROM state_history_default WHERE at >= lo AND at < hi) THEN
            LOCK TABLE state_history_default IN ACCESS EXCLUSIVE MODE;
            EXECUTE format('WITH moved AS (DELETE FROM state_history_default WHERE at >= $1 AND at < $2 RETURNING *)
                            INSERT INTO %I SELECT * FROM moved', part) USING lo, hi;
            GET DIAGNOSTICS n = ROW_COUNT;
          END IF;
          EXECUTE format('ALTER TABLE state_history ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
          action := 'created'; partition := part; moved_rows := n;
          RETURN NEXT;
        END LOOP;
        IF keep_months > 0 THEN
          FOR r IN SELECT p.name FROM state_history_partitions p
                    WHERE NOT p.is_default AND p.upper <= now() - make_interval(months => keep_months)
                    ORDER BY p.upper LOOP
            IF retire = 'drop' THEN
              EXECUTE format('DROP TABLE %I', r.name);
              action := 'dropped';
            ELSE
              EXECUTE format('ALTER TABLE state_history DETACH PARTITION %I', r.name);
              EXECUTE format('ALTER TABLE %I SET SCHEMA state_history_archive', r.name);
              action := 'detached';
            END IF;
            partition := r.name; moved_rows := 0;
            RETURN NEXT;
          END LOOP;
        END IF;
      END $$`);
    // This month and the next three exist from the start; the job keeps them ahead.
    await q.query(`SELECT * FROM state_history_maintain(3, 0, 'detach')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION state_history_maintain(integer, integer, text)`);
    await q.query(`DROP VIEW state_history_partitions`);
    await q.query(`ALTER SEQUENCE state_history_id_seq RENAME TO state_history_partitioned_id_seq`);
    await q.query(`ALTER TABLE state_history RENAME TO state_history_partitioned`);
    await q.query(`ALTER INDEX state_history_subject_idx RENAME TO state_history_partitioned_subject_idx`);
    await q.query(`
      CREATE TABLE state_history (
        id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subject      TEXT        NOT NULL CONSTRAINT state_history_subject_check CHECK (subject IN ('payout', 'batch', 'batch_entry')),
        subject_id   BIGINT      NOT NULL,
        account_id   TEXT        NOT NULL,
        transfer_id  TEXT        NOT NULL,
        from_status  TEXT,
        to_status    TEXT        NOT NULL,
        version      INTEGER     NOT NULL,
        cause        TEXT        NOT NULL CONSTRAINT state_history_cause_check CHECK (cause IN ('intake', 'executor', 'reconciler', 'webhook', 'operator')),
        reason       TEXT,
        status_code  TEXT,
        reference_id TEXT,
        utr          TEXT,
        operator_id  TEXT,
        approver_id  TEXT,
        proposal_id  BIGINT,
        at           TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT state_history_operator CHECK ((cause = 'operator') = (operator_id IS NOT NULL))
      )`);
    await q.query(
      `INSERT INTO state_history OVERRIDING SYSTEM VALUE SELECT * FROM state_history_partitioned`,
    );
    await q.query(
      `SELECT setval(pg_get_serial_sequence('state_history', 'id'), GREATEST(1, (SELECT max(id) FROM state_history)))`,
    );
    await q.query(`CREATE INDEX state_history_subject_idx ON state_history (subject, subject_id, id)`);
    await q.query(`DROP TABLE state_history_partitioned`);
    // Detached partitions stay for the operator (data); the schema goes when it is empty.
    await q.query(`DROP SCHEMA IF EXISTS state_history_archive RESTRICT`);
  }
}
