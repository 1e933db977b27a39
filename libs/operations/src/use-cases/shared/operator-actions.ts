import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { type OperatorActionEntry } from '../../operator-action.repository.js';
import { mayDo, refusalOf, viaLabel, type Operator, type OperatorAction } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';

/** The role check of the use case itself (the HTTP edge checks first; this holds without it). */
export function allow(who: Operator, action: OperatorAction): void {
  if (!mayDo(who, action)) throw new OperationsError(OperationsErrorCode.Forbidden, refusalOf(who, action));
}

/** Who did it, as an action row records it: the human, their display name, their role, how. */
export function actorOf(
  who: Operator,
): Pick<OperatorActionEntry, 'operatorId' | 'operatorName' | 'role' | 'via'> {
  return { operatorId: who.id, operatorName: who.name, role: who.role, via: viaLabel(who.via) };
}

/**
 * The second pair of eyes: `decider` may decide what `proposerId` proposed only as another
 * human, with a role that decides, and never through a token (whose human is its issuer).
 */
export function allowSecondPerson(decider: Operator, proposerId: string, what: string): void {
  allow(decider, 'decide');
  if (decider.id === proposerId)
    throw new OperationsError(
      OperationsErrorCode.Forbidden,
      `${what} is your own (directly or through a token you issued): a different person must decide it`,
    );
}

/** Runs an action and records it (done or refused) with who asked. */
export async function recorded<T>(
  d: Pick<OperationsPorts, 'pool' | 'actions'>,
  who: Operator,
  action: OperatorActionEntry['action'],
  on: Pick<
    OperatorActionEntry,
    'payoutId' | 'accountId' | 'transferId' | 'eventId' | 'beneId' | 'beneProposalId'
  >,
  work: () => Promise<{ value: T; result: string; proposalId?: string }>,
): Promise<T> {
  try {
    const r = await work();
    await d.actions.record(d.pool, {
      ...actorOf(who),
      action,
      ...on,
      result: r.result,
      proposalId: r.proposalId ?? null,
    });
    return r.value;
  } catch (e) {
    if (e instanceof OperationsError)
      await d.actions.record(d.pool, {
        ...actorOf(who),
        action,
        ...on,
        result: e.code,
      });
    throw e;
  }
}
