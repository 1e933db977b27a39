import { type ContradictionRow } from '#ledger';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { contradictionView, type ContradictionView } from '../../operations.views.js';
import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { actorOf, allow, recorded } from '../shared/operator-actions.js';
import { notFound } from '../shared/refusals.js';
import { type AcknowledgeContradictionCommand } from './acknowledge-contradiction.command.js';

export type ContradictionPorts = Pick<OperationsPorts, 'pool' | 'actions' | 'contradictions'>;

/** The contradiction, or 404; and what its action rows refer to (its payout or entry, its event). */
export async function contradictionFor(
  d: ContradictionPorts,
  id: string,
): Promise<{ c: ContradictionRow; repo: NonNullable<ContradictionPorts['contradictions']> }> {
  const repo = d.contradictions;
  const c = repo && /^\d{1,18}$/.test(id) ? await repo.byId(d.pool, id) : undefined;
  if (!repo || !c) throw notFound(`no contradiction ${id}`);
  return { c, repo };
}

export const contradictionRefs = (c: ContradictionRow) => ({
  payoutId: c.payoutId,
  accountId: c.accountId,
  transferId: c.transferId,
  eventId: c.eventId,
});

/**
 * A first person has seen a contradiction (and settles the money with the provider and upstream,
 * outside this service). It stays in the queue until a second, other person confirms
 * (ConfirmAcknowledgement): one person alone never clears the alarm of a double payment. The
 * payout's published state is not changed. Recorded with who did it; an unknown or already
 * acknowledged one is 404, one waiting for its confirmation 409.
 */
export class AcknowledgeContradiction {
  constructor(private readonly d: ContradictionPorts) {}

  async execute(who: Operator, { id, note }: AcknowledgeContradictionCommand): Promise<ContradictionView> {
    allow(who, 'acknowledge');
    const { c, repo } = await contradictionFor(this.d, id);
    return recorded(this.d, who, 'acknowledge', contradictionRefs(c), async () => {
      if (c.acknowledgedAt !== null) throw notFound(`no open contradiction ${id}`);
      const { operatorId, operatorName, via } = actorOf(who);
      const done = await repo.proposeAcknowledgement(
        this.d.pool,
        id,
        { id: operatorId, name: operatorName, via },
        note,
      );
      if (done) return { value: contradictionView(done), result: 'awaiting_confirmation' };
      throw new OperationsError(
        OperationsErrorCode.Conflict,
        `contradiction ${id} is acknowledged already and waits for a second person to confirm it`,
      );
    });
  }
}
