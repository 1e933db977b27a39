import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { contradictionView, type ContradictionView } from '../../operations.views.js';
import { type Operator } from '../../operators.js';
import {
  contradictionFor,
  contradictionRefs,
  type ContradictionPorts,
} from '../acknowledge-contradiction/acknowledge-contradiction.use-case.js';
import { type AcknowledgeContradictionCommand } from '../acknowledge-contradiction/acknowledge-contradiction.command.js';
import { actorOf, allow, allowSecondPerson, recorded } from '../shared/operator-actions.js';
import { notFound } from '../shared/refusals.js';

/**
 * The second person of a contradiction's acknowledgement: an approver signed in as themselves
 * (never a token), another human than the one who acknowledged it, confirms; then it leaves the
 * queue. As the decision of a proposal (ADR 0016), with the same checks.
 */
export class ConfirmAcknowledgement {
  constructor(private readonly d: ContradictionPorts) {}

  async execute(who: Operator, { id, note }: AcknowledgeContradictionCommand): Promise<ContradictionView> {
    allow(who, 'decide');
    const { c, repo } = await contradictionFor(this.d, id);
    return recorded(this.d, who, 'ack_confirm', contradictionRefs(c), async () => {
      if (c.acknowledgedAt !== null) throw notFound(`no open contradiction ${id}`);
      if (c.ackProposedBy === null)
        throw new OperationsError(
          OperationsErrorCode.Conflict,
          `contradiction ${id} is not acknowledged yet: a first person acknowledges it, a second confirms`,
        );
      allowSecondPerson(who, c.ackProposedBy, `the acknowledgement of contradiction ${id}`);
      const { operatorId, operatorName, via } = actorOf(who);
      const done = await repo.confirmAcknowledgement(
        this.d.pool,
        id,
        { id: operatorId, name: operatorName, via },
        note,
      );
      if (done) return { value: contradictionView(done), result: 'acknowledged' };
      throw new OperationsError(
        OperationsErrorCode.Conflict,
        `contradiction ${id} changed meanwhile: look again`,
      );
    });
  }
}
