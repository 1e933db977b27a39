import { type Queryable } from './outbox.types.js';

/** The publication pgoutput streams (migration 1764520000000): it lists no table, only messages flow. */
export const WAL_PUBLICATION = 'payouts_outbox';

export interface WalServerFacts {
  readonly walLevel: string;
  readonly database: string;
  /** Whether the service's role may create and stream a replication slot (REPLICATION or superuser). */
  readonly canReplicate: boolean;
  readonly publicationExists: boolean;
}

export interface WalSlotStatus {
  readonly database: string | null;
  readonly plugin: string | null;
  readonly active: boolean;
  /** `reserved`, `extended`, `unreserved` or `lost` (invalidated: its WAL is gone). */
  readonly walStatus: string | null;
  /** WAL bytes written since the relay's confirmed position: what the slot holds back. */
  readonly lagBytes: number;
  /** The slot's confirmed position ('0/0' when it has none). */
  readonly confirmedFlushLsn: string;
}

/**
 * The statements of the WAL transport (ADR 0023): writing events as logical decoding messages,
 * and what the relay needs to know about its slot. The outbox table's own statements stay in
 * OutboxRepository.
 */
export class WalOutboxRepository {
  /**
   * Writes each message into the WAL in the CALLER's transaction, in array order (one statement):
   * transactional, so it is decoded at the commit, in commit order, or never if the transaction
   * rolls back. The same contract with callers as OutboxRepository.enqueue (the key's entity row
   * lock held until commit) makes commit order the order of each key's events. Returns the last
   * message's LSN.
   */
  async emit(q: Queryable, prefix: string, contents: readonly string[]): Promise<string | null> {
    if (contents.length === 0) return null;
    const { rows } = await q.query<{ lsn: string | null }>(
      /* sql: walOutbox.emit */ `
      SELECT max(pg_logical_emit_message(true, $1, m))::text AS lsn FROM unnest($2::text[]) AS m`,
      [prefix, contents],
    );
    return rows[0]?.lsn ?? null;
  }

  async serverFacts(q: Queryable): Promise<WalServerFacts> {
    const { rows } = await q.query<{
      wal_level: string;
      database: string;
      can_replicate: boolean;
      publication: boolean;
    }>(
      /* sql: walOutbox.serverFacts */ `
      SELECT current_setting('wal_level') AS wal_level, current_database() AS database,
             coalesce((SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user), false)
               AS can_replicate,
             EXISTS (SELECT 1 FROM pg_publication WHERE pubname = $1) AS publication`,
      [WAL_PUBLICATION],
    );
    const r = rows[0];
    return {
      walLevel: r?.wal_level ?? 'unknown',
      database: r?.database ?? '',
      canReplicate: r?.can_replicate ?? false,
      publicationExists: r?.publication ?? false,
    };
  }

  /** The slot as PostgreSQL sees it, or undefined when it does not exist. */
  async slot(q: Queryable, name: string): Promise<WalSlotStatus | undefined> {
    const { rows } = await q.query<{
      database: string | null;
      plugin: string | null;
      active: boolean;
      wal_status: string | null;
      lag: number | null;
      confirmed: string | null;
    }>(
      /* sql: walOutbox.slot */ `
      SELECT database, plugin, active, wal_status, confirmed_flush_lsn::text AS confirmed,
             pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::float8 AS lag
        FROM pg_replication_slots
       WHERE slot_name = $1`,
      [name],
    );
    const r = rows[0];
    if (!r) return undefined;
    return {
      database: r.database,
      plugin: r.plugin,
      active: r.active,
      walStatus: r.wal_status,
      lagBytes: Math.max(0, r.lag ?? 0),
      confirmedFlushLsn: r.confirmed ?? '0/0',
    };
  }

  /**
   * Creates the slot in the current database. Returns false when another instance created it
   * first (42710). Messages committed before this moment are not in it.
   */
  async createSlot(q: Queryable, name: string): Promise<boolean> {
    try {
      await q.query(
        /* sql: walOutbox.createSlot */ `
        SELECT pg_create_logical_replication_slot($1, 'pgoutput')`,
        [name],
      );
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === '42710') return false;
      throw e;
    }
  }

  /** Where the flushed WAL ends now: a flush waits until the relay has confirmed this far. */
  async currentLsn(q: Queryable): Promise<string> {
    const { rows } = await q.query<{ lsn: string }>(
      /* sql: walOutbox.currentLsn */ `SELECT pg_current_wal_flush_lsn()::text AS lsn`,
    );
    return rows[0]?.lsn ?? '0/0';
  }
}
