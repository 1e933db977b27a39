import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { allow, recorded } from '../shared/operator-actions.js';
import { notFound } from '../shared/refusals.js';

/** Puts a dead outbox row (by its id or event id) back to pending, which unblocks its key. */
export class ReplayDeadEvent {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'actions' | 'replayDead' | 'logger'>) {}

  async execute(who: Operator, eventId: string): Promise<void> {
    allow(who, 'replay');
    await recorded(this.d, who, 'replay', { eventId }, async () => {
      const result = await this.d.replayDead(eventId);
      if (result === 'not-found') throw notFound(`no dead outbox row for ${eventId}`);
      this.d.logger.info({ eventId, operator: who.id }, 'operator replay: dead outbox row is pending again');
      return { value: undefined, result };
    });
  }
}
