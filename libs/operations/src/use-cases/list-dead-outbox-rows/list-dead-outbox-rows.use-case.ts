import { scrubText } from '#pipeline';
import { type DeadOutboxView, type Page } from '../../dead-letters.js';
import { paginate } from '../shared/paginate.js';
import { type OperationsPorts } from '../operations.ports.js';
import { type DeadLetterPageCommand } from '../shared/dead-letter-page.command.js';

const MAX_ERROR_CHARS = 500;

/**
 * Outbox rows the relay gave up on (replayable by replay-dead-event), newest first, with a keyset
 * cursor; never their payload. The broker's error text is still scrubbed (digit runs, VPAs) and
 * cut, as anything shown to a person.
 */
export class ListDeadOutboxRows {
  constructor(private readonly d: Pick<OperationsPorts, 'deadOutboxRows'>) {}

  async execute({ beforeId, limit }: DeadLetterPageCommand): Promise<Page<DeadOutboxView>> {
    const rows = await this.d.deadOutboxRows({ beforeId, limit: limit + 1 });
    return paginate(rows, limit, (r) => ({
      id: r.id,
      eventId: r.eventId,
      eventType: r.eventType,
      messageKey: r.messageKey,
      topic: r.topic,
      attempts: r.attempts,
      lastError: r.lastError === null ? null : scrubText(r.lastError).slice(0, MAX_ERROR_CHARS),
      createdAt: r.createdAt.toISOString(),
    }));
  }
}
