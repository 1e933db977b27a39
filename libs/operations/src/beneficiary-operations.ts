import type pg from 'pg';
import { decodeQueryData } from '#contracts';
import { type BeneficiaryAnswer, type ManageBeneficiaries, type MaskedBeneficiary } from '#pipeline';
import { OperationsError, OperationsErrorCode } from './operations.errors.js';
import { type OperatorActionRepository } from './operator-action.repository.js';
import { roleAllows, type Operator } from './operators.js';

export interface BeneficiaryOperationsDeps {
  pool: pg.Pool;
  actions: OperatorActionRepository;
  manage: ManageBeneficiaries;
  /** Accounts the provider client knows: another is refused before any call. */
  accountIds: readonly string[];
}

/** What the operations API answers: the beneficiary masked, and the generation that answered. */
export interface BeneficiaryView {
  readonly accountId: string;
  readonly generation: 'v1' | 'v2';
  readonly result: string;
  readonly beneficiary?: MaskedBeneficiary;
}

const BENE_ID = /^[A-Za-z0-9]{1,60}$/;

/**
 * An operator's beneficiary use cases: get (a read), create and delete (an operator's, each
 * recorded in operator_action with who did it and the beneficiary's id, done or refused). The
 * same use case as the Kafka request (ManageBeneficiaries), so both answer alike; the details
 * are validated by the contract's `beneficiary.create` schema.
 */
export class BeneficiaryOperations {
  constructor(private readonly d: BeneficiaryOperationsDeps) {}

  async get(accountId: string, beneId: string): Promise<BeneficiaryView> {
    this.checkIds(accountId, beneId);
    return viewOf(accountId, await this.d.manage.get(accountId, beneId));
  }

  async create(who: Operator, accountId: string, body: unknown): Promise<BeneficiaryView> {
    const beneId = isRecord(body) && typeof body['beneId'] === 'string' ? body['beneId'] : null;
    return this.recorded(who, 'bene_create', accountId, beneId, async () => {
      const data = decodeQueryData('beneficiary.create', body);
      if (!data.ok) throw invalid(`beneficiary details: ${data.detail}`);
      this.checkIds(accountId, data.value.beneId);
      return viewOf(accountId, await this.d.manage.create(accountId, data.value, undefined));
    });
  }

  async remove(who: Operator, accountId: string, beneId: string): Promise<BeneficiaryView> {
    return this.recorded(who, 'bene_delete', accountId, beneId, async () => {
      this.checkIds(accountId, beneId);
      return viewOf(accountId, await this.d.manage.remove(accountId, beneId));
    });
  }

  private checkIds(accountId: string, beneId: string): void {
    if (!this.d.accountIds.includes(accountId))
      throw new OperationsError(OperationsErrorCode.NotFound, `no provider account ${accountId}`);
    if (!BENE_ID.test(beneId)) throw invalid('beneId must be 1 to 60 letters or digits');
  }

  /** Runs it and records it (done or refused) with who asked: an id and a result, never details. */
  private async recorded(
    who: Operator,
    action: 'bene_create' | 'bene_delete',
    accountId: string,
    beneId: string | null,
    work: () => Promise<BeneficiaryView>,
  ): Promise<BeneficiaryView> {
    const record = (result: string) =>
      this.d.actions.record(this.d.pool, {
        operatorId: who.id,
        role: who.role,
        action,
        accountId,
        beneId: beneId !== null && BENE_ID.test(beneId) ? beneId : null,
        result,
      });
    if (!roleAllows(who.role, 'beneficiary')) {
      const e = new OperationsError(
        OperationsErrorCode.Forbidden,
        `operator ${who.id} (${who.role}) may not`,
      );
      await record(e.code);
      throw e;
    }
    try {
      const v = await work();
      await record(v.result);
      return v;
    } catch (e) {
      if (e instanceof OperationsError) await record(e.code);
      throw e;
    }
  }
}

function viewOf(accountId: string, a: BeneficiaryAnswer): BeneficiaryView {
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

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function invalid(message: string): OperationsError {
  return new OperationsError(OperationsErrorCode.InvalidInput, message);
}
