import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { contradictionView, type ContradictionView } from '../../operations.views.js';
import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { recorded } from '../shared/operator-actions.js';
import { notFound } from '../shared/refusals.js';
import { type AcknowledgeContradictionCommand } from './acknowledge-contradiction.command.js';

/**
 * A person has seen a contradiction (and settles the money with the provider and upstream, outside
 * this service): it leaves the queue. The payout's published state is not changed. Recorded with
 * who did it; an unknown or already acknowledged one is 404 / 409.
 */
export class AcknowledgeContradiction {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'actions' | 'contradictions'>) {}

  async execute(who: Operator, { id, note }: AcknowledgeContradictionCommand): Promise<ContradictionView> {
    const repo = this.d.contradictions;
    if (!repo || !/^\d{1,18}$/.test(id)) throw notFound(`no contradiction ${id}`);
    return recorded(this.d, who, 'acknowledge', {}, async () => {
      const done = await repo.acknowledge(this.d.pool, id, who.id, note);
      if (done) return { value: contradictionView(done), result: 'acknowledged' };
      throw new OperationsError(OperationsErrorCode.NotFound, `no open contradiction ${id}`);
    });
  }
}
