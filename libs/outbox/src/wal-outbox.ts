import { ConfigError } from '#config';
import { type AppLogger } from '#observability';
import { type OutboxInsert, type Queryable } from './outbox.types.js';
import { encodeWalMessage, WAL_MESSAGE_PREFIX } from './wal-message.js';
import { WAL_PUBLICATION, WalOutboxRepository } from './wal-outbox.repository.js';

/**
 * The ledger's outbox port for OUTBOX_TRANSPORT=wal (ADR 0023): each event becomes a
 * transactional logical decoding message in the caller's transaction, one statement per call, no
 * row. The same contract with callers as OutboxRepository.enqueue (the key's entity row lock held
 * until commit), so each key's events commit, and are decoded, in order.
 */
export class WalOutboxWriter {
  constructor(private readonly repo = new WalOutboxRepository()) {}

  async enqueue(q: Queryable, rows: readonly OutboxInsert[]): Promise<void> {
    await this.repo.emit(q, WAL_MESSAGE_PREFIX, rows.map(encodeWalMessage));
  }
}

/**
 * Run by every instance in `wal` mode before it writes or relays an event: refuses (ConfigError,
 * exit 78) a server without wal_level=logical, a role that may not replicate, a missing publication
 * (migrations not run), a slot of another database or plugin, or a slot PostgreSQL invalidated;
 * creates the slot when it is missing. The slot must exist before the first message is written:
 * a message committed before it is not in it. (Events written by the table transport before the
 * switch are rows, published by the table relay; nothing is lost by switching.)
 */
export async function prepareWalOutbox(q: Queryable, slot: string, logger: AppLogger): Promise<void> {
  const repo = new WalOutboxRepository();
  const facts = await repo.serverFacts(q);
  const problems: string[] = [];
  if (facts.walLevel !== 'logical')
    problems.push(
      `OUTBOX_TRANSPORT=wal needs wal_level=logical; this PostgreSQL has wal_level=${facts.walLevel} (set wal_level=logical and restart PostgreSQL, or use OUTBOX_TRANSPORT=table)`,
    );
  if (!facts.canReplicate)
    problems.push(
      'OUTBOX_TRANSPORT=wal needs a database role with REPLICATION (ALTER ROLE … REPLICATION), or OUTBOX_TRANSPORT=table',
    );
  if (!facts.publicationExists)
    problems.push(`OUTBOX_TRANSPORT=wal needs the publication ${WAL_PUBLICATION}: run the migrations`);
  if (problems.length > 0) throw new ConfigError(problems, 'See docs/adr/0023-wal-outbox.md.');
  let status = await repo.slot(q, slot);
  if (!status) {
    if (await repo.createSlot(q, slot))
      logger.warn({ slot }, 'created the outbox replication slot: events are streamed from here on');
    status = await repo.slot(q, slot);
  }
  if (status && (status.database !== facts.database || status.plugin !== 'pgoutput'))
    throw new ConfigError([
      `OUTBOX_WAL_SLOT=${slot} is a slot of database ${status.database ?? '(physical)'} with plugin ${status.plugin ?? 'none'}: name a slot of this database's own (slot names are per server)`,
    ]);
  if (status?.walStatus === 'lost')
    throw new ConfigError(
      [
        `the outbox slot ${slot} was invalidated (its WAL passed max_slot_wal_keep_size): events not relayed before are gone from the WAL`,
      ],
      'Recover and drop the slot as docs/adr/0023-wal-outbox.md says; the next start creates a new one.',
    );
}
