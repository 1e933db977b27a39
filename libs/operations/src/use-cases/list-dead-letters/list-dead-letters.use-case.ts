import { type DeadLetterView, type Page } from '../../dead-letters.js';
import { paginate } from '../shared/paginate.js';
import { type OperationsPorts } from '../operations.ports.js';
import { type DeadLetterPageCommand } from '../shared/dead-letter-page.command.js';

/**
 * Commands refused to the dead-letter topic (their mirror rows), newest first, with a keyset
 * cursor (the row id), so a page never shifts when new ones arrive. Nothing here is a secret:
 * dead letters keep names of fields and rules, never values (ADR 0007).
 */
export class ListDeadLetters {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'deadLetters'>) {}

  async execute({ beforeId, limit }: DeadLetterPageCommand): Promise<Page<DeadLetterView>> {
    const rows = await this.d.deadLetters.list(this.d.pool, { beforeId, limit: limit + 1 });
    return paginate(rows, limit, (r) => {
      const type = r.detail['type'];
      return {
        id: r.id,
        topic: r.topic,
        partition: r.partition,
        offset: r.offset,
        reason: r.reason,
        type: typeof type === 'string' ? type : null,
        detail: r.detail['detail'] ?? null,
        createdAt: r.createdAt.toISOString(),
      };
    });
  }
}
