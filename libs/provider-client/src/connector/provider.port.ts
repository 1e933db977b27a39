import { type Command, type ProviderApi } from '#contracts';
import { type BeneHistory, type BeneHistoryRequest } from '../adapters/bene-history.adapter.js';
import { type BeneficiaryDetails, type ProviderBeneficiary } from '../adapters/beneficiary.js';
import { type SdkToken } from '../adapters/create-sdk-token.adapter.js';
import { type ProviderResult } from '../core/outcome.js';
import { type CallOptions } from '../provider-client.js';
import { type ResultListener } from '../request-executor.js';
import { type WebhookMeaning } from '../webhooks/webhook-meaning.js';
import {
  type WebhookApiVersion,
  type WebhookReader,
  type WebhookReaderSettings,
} from '../webhooks/webhook-reader.js';
import { type Connectors, type ConnectorKind, type KindTraits } from './connector.port.js';
import { KIND_TRAITS } from './kind-traits.js';
import { generationRuleRefusing, type GenerationRefusal } from '../generation-rules.js';

/** A call on an account, with the generation that carried it. */
export interface Routed<D> {
  readonly generation: ProviderApi;
  readonly result: ProviderResult<D>;
  /**
   * Set when the provider refused a new beneficiary because the same bank account and IFSC are
   * registered under another id (v2 says so): the caller looks it up by account.
   */
  readonly sameAccountExists?: true;
}

/** Beneficiaries in the service's terms, routed by the account's API generation. */
export interface ProviderBeneficiaries {
  generationOf(accountId: string): ProviderApi;
  create(accountId: string, b: BeneficiaryDetails, requestId?: string): Promise<Routed<ProviderBeneficiary>>;
  get(accountId: string, beneId: string, requestId?: string): Promise<Routed<ProviderBeneficiary>>;
  /** The beneficiary registered with this account and IFSC. */
  findByAccount(
    accountId: string,
    bankAccount: string,
    ifsc: string,
    requestId?: string,
  ): Promise<Routed<ProviderBeneficiary>>;
  remove(accountId: string, beneId: string, requestId?: string): Promise<Routed<{ readonly removed: true }>>;
}

/** What the `query.sdk_token` query asks for, in the service's terms. */
export interface SdkTokenQuery {
  readonly appId: string;
  /** Default VKYC (video KYC). */
  readonly product?: string;
  /** The video-KYC request the token is for. */
  readonly vkycRequestId: string | number;
  readonly authenticatedUser: { readonly identifierType: string; readonly identifierValue: string | number };
}

/** An account's balance at the provider, in the service's terms (issue 32). */
export interface AccountBalance {
  /** The ledger balance minus the provider's pending transfers: exact decimal, 2 places. */
  readonly available: string;
  /** The ledger balance: exact decimal, 2 places (negative when overdrawn). */
  readonly ledger: string;
  /** When the provider's answer arrived. */
  readonly readAt: Date;
}

/** The read-only queries the service answers from the provider. */
export interface ProviderQueries {
  /** A beneficiary's transfers (v1 beneHistory). */
  beneHistory(q: BeneHistoryRequest, opts: CallOptions): Promise<ProviderResult<BeneHistory>>;
  /** A token for the provider's SDK (v2 createSdkToken). */
  sdkToken(q: SdkTokenQuery, opts: CallOptions): Promise<ProviderResult<SdkToken>>;
  /**
   * The account's balance (Get Balance; an account on v2 reads it as the provider documents: the
   * v1 path after the v1 authorize). On the account's shared rate budget.
   */
  balance(accountId: string, requestId?: string): Promise<ProviderResult<AccountBalance>>;
}

/** Webhooks: verified and read by the provider's rules, and understood in the service's terms. */
export interface ProviderWebhooks {
  /** One reader per API generation (signature, replay window, field names). */
  readers(s: WebhookReaderSettings): Readonly<Record<WebhookApiVersion, WebhookReader>>;
  /** What a kept webhook is about: which state, batch or notice, and its evidence. */
  meaning(event: string, fields: { readonly status?: string; readonly statusCode?: string }): WebhookMeaning;
  /** Its event's metric label: one of the connector's known types, or `other`. */
  label(event: string): string;
  /** A hint's event time (as the provider wrote it) in epoch ms; undefined when unreadable. */
  eventTimeOf(text: string | undefined): number | undefined;
  /**
   * A webhook whose meaning has `shortOfFunds` was applied to its payout (the provider failed it
   * for the account's balance): counted with the answers that say so
   * (payouts_provider_balance_refusals_total), once per payout it moved.
   */
  balanceRefused(accountId: string): void;
}

/** The configured provider accounts, as the service needs them. */
export interface ProviderAccounts {
  readonly ids: readonly string[];
  /** The generation a new payout of this account is sent on (default account when omitted). */
  apiOf(accountId?: string): ProviderApi;
  /** Each account's webhook key (its client secret). */
  readonly webhookKeys: ReadonlyMap<string, string>;
  /** Accounts whose webhook version is pinned. */
  readonly pinnedWebhookVersions: ReadonlyMap<string, WebhookApiVersion>;
  /** Accounts where an internal transfer still not found settles FAILED (issue 29). */
  readonly notReceivedFails: ReadonlySet<string>;
}

/**
 * The provider, behind one door (issue 31): payouts and batches per API generation,
 * beneficiaries, the queries, webhooks already in the service's terms, and the accounts. Nothing
 * the service holds names an endpoint, a provider event, status word or code; every method
 * resolves (never rejects). Built by `createProvider`; an abstract class so a composition root
 * can use it as its own token.
 */
export abstract class ProviderPort {
  /** How the provider treats a payout kind on a generation: static, the same for every account. */
  static traits(api: ProviderApi, kind: ConnectorKind): KindTraits {
    return KIND_TRAITS[api][kind];
  }

  /**
   * The rule of a generation that refuses a command the contract accepts (issue 31, item 5: a v2
   * account's stricter field rules), checked at intake; undefined when the generation takes it.
   */
  static ruleRefusing(api: ProviderApi, command: Command): GenerationRefusal | undefined {
    return generationRuleRefusing(api, command);
  }

  /** Payouts and batches, per generation: a row is sent, checked and re-sent on its own. */
  abstract readonly payouts: Connectors;
  abstract readonly beneficiaries: ProviderBeneficiaries;
  abstract readonly queries: ProviderQueries;
  abstract readonly webhooks: ProviderWebhooks;
  abstract readonly accounts: ProviderAccounts;
  /** Observes every result of a configured account (readiness follows the provider's answers). */
  abstract onResult(listener: ResultListener): void;
  abstract close(): Promise<void>;
}
