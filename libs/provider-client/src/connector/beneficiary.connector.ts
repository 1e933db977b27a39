import { type ProviderBeneficiary, type BeneficiaryDetails } from '../adapters/beneficiary.js';
import { type ApiGeneration } from '../account-generation.js';
import { type ProviderResult } from '../core/outcome.js';
import { type CallOptions, type ProviderClient } from '../provider-client.js';
import { type ProviderBeneficiaries, type Routed } from './provider.port.js';

/** A result with its data replaced (the outcome, reason and diagnostics are kept). */
function mapData<A, B>(r: ProviderResult<A>, f: (a: A) => B): ProviderResult<B> {
  switch (r.outcome) {
    case 'success':
      return { ...r, data: f(r.data) };
    case 'pending':
    case 'failed':
    case 'unknown': {
      const { data, ...rest } = r;
      return data === undefined ? rest : { ...rest, data: f(data) };
    }
    case 'retry-safe':
    case 'auth-refresh':
    case 'fatal-config':
      return r;
  }
}

/**
 * Beneficiaries in the service's terms, routed by the account's API generation: v1
 * addBeneficiary / getBeneficiary / removeBeneficiary / getBeneId, or v2 `/payout/beneficiary`.
 * Results are the client's outcome classes; what to make of a duplicate or a not-found is the
 * caller's decision.
 */
export class BeneficiaryConnector implements ProviderBeneficiaries {
  constructor(
    private readonly client: ProviderClient,
    readonly generationOf: (accountId: string) => ApiGeneration,
  ) {}

  async create(
    accountId: string,
    b: BeneficiaryDetails,
    requestId?: string,
  ): Promise<Routed<ProviderBeneficiary>> {
    const o: CallOptions = { accountId, requestId };
    const generation = this.generationOf(accountId);
    if (generation === 'v2') {
      const result = await this.client.call('createBeneficiaryV2', b, o);
      // v2 says which one exists: the same account + IFSC under another id is found by account.
      const sameAccount = result.diagnostics.code === 'beneficiary_already_exists';
      return { generation, result, ...(sameAccount ? { sameAccountExists: true as const } : {}) };
    }
    // v1 answers no record: what it registered is what was sent.
    return { generation, result: mapData(await this.client.call('addBeneficiary', b, o), () => ({ ...b })) };
  }

  async get(accountId: string, beneId: string, requestId?: string): Promise<Routed<ProviderBeneficiary>> {
    const o: CallOptions = { accountId, requestId };
    const generation = this.generationOf(accountId);
    const result =
      generation === 'v2'
        ? await this.client.call('getBeneficiaryV2', { beneId }, o)
        : await this.client.call('getBeneficiary', { beneId }, o);
    return { generation, result };
  }

  /** The beneficiary registered with this account and IFSC: v1 getBeneId, v2 GET by account + IFSC. */
  async findByAccount(
    accountId: string,
    bankAccount: string,
    ifsc: string,
    requestId?: string,
  ): Promise<Routed<ProviderBeneficiary>> {
    const o: CallOptions = { accountId, requestId };
    const generation = this.generationOf(accountId);
    if (generation === 'v2') {
      return { generation, result: await this.client.call('getBeneficiaryV2', { bankAccount, ifsc }, o) };
    }
    const r = await this.client.call('getBeneId', { bankAccount, ifsc }, o);
    return { generation, result: mapData(r, (d) => ({ beneId: d.beneId, name: '', bankAccount, ifsc })) };
  }

  async remove(
    accountId: string,
    beneId: string,
    requestId?: string,
  ): Promise<Routed<{ readonly removed: true }>> {
    const o: CallOptions = { accountId, requestId };
    const generation = this.generationOf(accountId);
    const removed = { removed: true as const };
    const result =
      generation === 'v2'
        ? mapData(await this.client.call('deleteBeneficiaryV2', { beneId }, o), () => removed)
        : await this.client.call('removeBeneficiary', { beneId }, o);
    return { generation, result };
  }
}
