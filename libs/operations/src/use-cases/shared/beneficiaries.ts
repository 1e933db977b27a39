import { type BeneficiaryAnswer, type MaskedBeneficiary } from '#pipeline';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { mayDo, refusalOf, type Operator, type OperatorAction } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { actorOf } from './operator-actions.js';
import { invalid } from './refusals.js';

/** What the operations API answers: the beneficiary masked, and the generation that answered. */
export interface BeneficiaryView {
  readonly accountId: string;
  readonly generation: 'v1' | 'v2';
  readonly result: string;
  readonly beneficiary?: MaskedBeneficiary;
}

export const BENE_ID = /^[A-Za-z0-9]{1,60}$/;

/** An account the provider client does not know is refused before any call; so is a malformed id. */
export function checkIds(accountIds: readonly string[], accountId: string, beneId: string): void {
  if (!accountIds.includes(accountId))
    throw new OperationsError(OperationsErrorCode.NotFound, `no provider account ${accountId}`);
  if (!BENE_ID.test(beneId)) throw invalid('beneId must be 1 to 60 letters or digits');
}

/**
 * Runs a person's step of a beneficiary change (a proposal, an approval, a rejection) and records
 * it (done or refused) with who asked: an id and a result, never details. The role (`need`) is
 * checked, and a refusal recorded, before anything.
 */
export async function recordedBeneficiaryChange<T>(
  d: Pick<OperationsPorts, 'pool' | 'actions'>,
  who: Operator,
  action: 'bene_create' | 'bene_delete' | 'bene_approve' | 'bene_reject',
  need: OperatorAction,
  on: { accountId: string; beneId: string | null; beneProposalId?: string | null },
  work: () => Promise<{ value: T; result: string; beneProposalId?: string }>,
): Promise<T> {
  const record = (result: string, beneProposalId?: string | null) =>
    d.actions.record(d.pool, {
      ...actorOf(who),
      action,
      accountId: on.accountId,
      beneId: on.beneId !== null && BENE_ID.test(on.beneId) ? on.beneId : null,
      beneProposalId: beneProposalId ?? on.beneProposalId ?? null,
      result,
    });
  if (!mayDo(who, need)) {
    const e = new OperationsError(OperationsErrorCode.Forbidden, refusalOf(who, need));
    await record(e.code);
    throw e;
  }
  try {
    const v = await work();
    await record(v.result, v.beneProposalId);
    return v.value;
  } catch (e) {
    if (e instanceof OperationsError) await record(e.code);
    throw e;
  }
}

/** The shared beneficiary answer as the API shows it, or its refusal as an operations error. */
export function beneficiaryViewOf(accountId: string, a: BeneficiaryAnswer): BeneficiaryView {
  if (a.ok) {
    return {
      accountId,
      generation: a.generation,
      result: a.result,
      ...(a.beneficiary ? { beneficiary: a.beneficiary } : {}),
    };
  }
  const detail = `${a.message} (${a.generation}${a.providerCode ? `, provider code ${a.providerCode}` : ''})`;
  switch (a.code) {
    case 'not_found':
      throw new OperationsError(OperationsErrorCode.NotFound, detail);
    case 'invalid':
      throw invalid(detail);
    case 'conflict':
      throw new OperationsError(OperationsErrorCode.Conflict, detail);
    case 'refused':
      throw new OperationsError(OperationsErrorCode.ProviderRefused, detail);
    case 'unavailable':
    case 'config':
      throw new OperationsError(OperationsErrorCode.ProviderUnavailable, detail);
    case 'unknown':
      throw new OperationsError(OperationsErrorCode.ProviderUnclear, detail);
  }
}
