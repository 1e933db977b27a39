import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { type OperatorActionEntry } from '../../operator-action.repository.js';
import { roleAllows, type Operator, type OperatorAction } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';

/** The role check of the use case itself (the HTTP edge checks first; this holds without it). */
export function allow(who: Operator, action: OperatorAction): void {
  if (!roleAllows(who.role, action))
    throw new OperationsError(
      OperationsErrorCode.Forbidden,
      `operator ${who.id} (${who.role}) may not ${action === 'decide' ? 'approve or reject' : action}`,
    );
}

/** Runs an action and records it (done or refused) with who asked. */
export async function recorded<T>(
  d: Pick<OperationsPorts, 'pool' | 'actions'>,
  who: Operator,
  action: OperatorActionEntry['action'],
  on: Pick<OperatorActionEntry, 'payoutId' | 'accountId' | 'transferId' | 'eventId'>,
  work: () => Promise<{ value: T; result: string; proposalId?: string }>,
): Promise<T> {
  try {
    const r = await work();
    await d.actions.record(d.pool, {
      operatorId: who.id,
      role: who.role,
      action,
      ...on,
      result: r.result,
      proposalId: r.proposalId ?? null,
    });
    return r.value;
  } catch (e) {
    if (e instanceof OperationsError)
      await d.actions.record(d.pool, {
        operatorId: who.id,
        role: who.role,
        action,
        ...on,
        result: e.code,
      });
    throw e;
  }
}
