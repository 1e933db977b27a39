import {
  type BeneficiaryDetails,
  type ProviderBeneficiaries,
  type ProviderBeneficiary,
  type ProviderResult,
} from '#provider-client';
import {
  decideExisting,
  beneficiaryErrorOf,
  maskBeneficiary,
  type BeneficiaryAnswer,
} from './beneficiary-decisions.js';
import { type BeneficiaryChangeLog } from '../shared/approval-ports.js';

/** Who asks for a change: a person of the operations API, or (none given) a Kafka request. */
export interface ChangedBy {
  readonly source: 'ops' | 'queries';
  readonly operatorId: string | null;
}
const KAFKA_REQUEST: ChangedBy = { source: 'queries', operatorId: null };

/**
 * Create, get and delete a beneficiary on an account, whatever its API generation. Each is safe
 * to repeat: a create whose beneficiary exists with the same details answers "exists" (the
 * provider's 409 is read, then compared), and a delete of one that is gone answers "absent".
 * Used by the Kafka request/reply handler and the operations API alike.
 */
export class ManageBeneficiaries {
  /** `changes`: where each create and remove is recorded before the provider is asked (issue 30). */
  constructor(
    private readonly connector: ProviderBeneficiaries,
    private readonly changes?: BeneficiaryChangeLog,
  ) {}

  async create(
    accountId: string,
    b: BeneficiaryDetails,
    requestId?: string,
    by: ChangedBy = KAFKA_REQUEST,
  ): Promise<BeneficiaryAnswer> {
    await this.changes?.record({ accountId, beneId: b.beneId, change: 'created', ...by });
    const created = await this.connector.create(accountId, b, requestId);
    const { generation, result } = created;
    if (result.outcome === 'success') {
      return { ok: true, generation, result: 'created', beneficiary: maskBeneficiary(result.data) };
    }
    const duplicate = result.outcome === 'failed' && result.kind === 'duplicate';
    if (!duplicate && result.outcome !== 'unknown') return beneficiaryErrorOf(generation, result);
    // The connector says when the same account + IFSC exists under another id: read by account.
    const byAccount = created.sameAccountExists === true && b.bankAccount && b.ifsc;
    const found = byAccount
      ? await this.connector.findByAccount(accountId, b.bankAccount ?? '', b.ifsc ?? '', requestId)
      : await this.connector.get(accountId, b.beneId, requestId);
    return decideExisting(generation, b, await this.complete(found.result, accountId, requestId), !duplicate);
  }

  async get(accountId: string, beneId: string, requestId?: string): Promise<BeneficiaryAnswer> {
    const { generation, result } = await this.connector.get(accountId, beneId, requestId);
    if (result.outcome !== 'success') return beneficiaryErrorOf(generation, result);
    return { ok: true, generation, result: 'found', beneficiary: maskBeneficiary(result.data) };
  }

  async remove(
    accountId: string,
    beneId: string,
    requestId?: string,
    by: ChangedBy = KAFKA_REQUEST,
  ): Promise<BeneficiaryAnswer> {
    await this.changes?.record({ accountId, beneId, change: 'removed', ...by });
    const { generation, result } = await this.connector.remove(accountId, beneId, requestId);
    if (result.outcome === 'success') return { ok: true, generation, result: 'deleted' };
    if (result.outcome === 'failed' && result.kind === 'not-found')
      return { ok: true, generation, result: 'absent' };
    if (result.outcome !== 'unknown') return beneficiaryErrorOf(generation, result);
    // Unclear: gone now is what was asked, whoever removed it.
    const check = await this.connector.get(accountId, beneId, requestId);
    const gone = check.result.outcome === 'failed' && check.result.kind === 'not-found';
    return gone ? { ok: true, generation, result: 'deleted' } : beneficiaryErrorOf(generation, result);
  }

  /** v1 getBeneId names the id only: the record itself is then read by id. */
  private async complete(
    r: ProviderResult<ProviderBeneficiary>,
    accountId: string,
    requestId?: string,
  ): Promise<ProviderResult<ProviderBeneficiary>> {
    if (r.outcome !== 'success' || r.data.name !== '') return r;
    return (await this.connector.get(accountId, r.data.beneId, requestId)).result;
  }
}
