import { Inject, Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';

/** What readiness needs to know about the outbox's replication slot (OUTBOX_TRANSPORT=wal). */
export interface OutboxSlotView {
  /** Why the slot cannot carry events (invalidated, missing), or undefined when it can. */
  problem(): Promise<string | undefined>;
}

/** Provided by the app; without it (or with the table transport) the `outboxSlot` check is up. */
export const OUTBOX_SLOT = Symbol('OUTBOX_SLOT');

/**
 * Down while the slot the WAL outbox writes for is invalidated or missing (ADR 0023): events
 * committed meanwhile may never be published, and no restart fixes it (as with `provider`'s
 * configuration faults). A database that cannot be asked leaves it up: `postgres` says so.
 */
@Injectable()
export class OutboxSlotHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Optional() @Inject(OUTBOX_SLOT) private readonly slot?: OutboxSlotView,
  ) {}

  async check(key = 'outboxSlot') {
    const indicator = this.health.check(key);
    const problem = await this.slot?.problem().catch(() => undefined);
    return problem === undefined ? indicator.up() : indicator.down({ message: problem });
  }
}
