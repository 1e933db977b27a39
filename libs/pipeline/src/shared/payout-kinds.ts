import { PAYOUT_KIND_NAMES, PROVIDER_APIS, type PayoutKind, type ProviderApi } from '#contracts';
import { type PayoutRow } from '#ledger';
import { type KindTraits, ProviderPort } from '#provider-client';

/** A count a kind uses up when it is accepted; past the limit the payout is rejected at intake. */
export type KindQuota = 'daily_withdrawal';

/**
 * What the pipeline decides per kind of payout: its own policy. How a kind is sent, asked about,
 * whether a re-send is safe and whether SUCCESS is watched belong to the provider, and so to the
 * connector, per API generation (`traitsOf`).
 */
export interface KindPolicy {
  /** The quota an accepted payout of this kind uses up; null: none. */
  readonly quota: KindQuota | null;
}

/** One row per kind: the compiler refuses a kind without a row. */
export type KindTable = { readonly [K in PayoutKind]: KindPolicy };

/**
 * The pipeline's policy per payout kind. The kinds are the contracts' (PAYOUT_KIND_NAMES, from the
 * `payout.<kind>` commands): a new kind is its command there, then a row here and its traits and
 * calls in the connector (the compiler asks for each); `payout-kinds.spec.ts` walks every row on
 * both generations.
 */
export const PAYOUT_KINDS: KindTable = {
  standard_transfer: { quota: null },
  direct_transfer: { quota: null },
  card_payout: { quota: null },
  validated_upi_payout: { quota: null },
  internal_transfer: { quota: null },
  // Three a day per account (Asia/Kolkata), counted at intake.
  self_withdrawal: { quota: 'daily_withdrawal' },
};

/** The generation a payout was sent on (its row's, set at intake); rows built by hand: v1. */
export function apiOf(row: { readonly providerApi?: ProviderApi | undefined }): ProviderApi {
  return row.providerApi ?? 'v1';
}

/** How the provider treats this payout: by its kind, on the generation it was sent on. */
export function traitsOf(row: Pick<PayoutRow, 'kind' | 'providerApi'>): KindTraits {
  return ProviderPort.traits(apiOf(row), row.kind);
}

/**
 * Kinds whose SUCCESS rows the ledger schedules for the reversal watch: watched on any
 * generation (today the two generations agree on every kind).
 */
export const REVERSAL_WATCH_KINDS: readonly PayoutKind[] = PAYOUT_KIND_NAMES.filter((k) =>
  PROVIDER_APIS.some((api) => ProviderPort.traits(api, k).reversalWatch),
);

/**
 * Kinds whose negative states (FAILED, REJECTED, REVERSED) the ledger schedules for the failed
 * watch (ADR 0018): every kind the provider can be asked about, on any generation (today the two
 * generations agree; a kind without a status endpoint is never asked, its watch just ends).
 */
export const FAILED_WATCH_KINDS: readonly PayoutKind[] = PAYOUT_KIND_NAMES.filter((k) =>
  PROVIDER_APIS.some((api) => ProviderPort.traits(api, k).status !== null),
);

/** Whether the provider can be asked about a payout of this kind sent on this generation. */
export function hasStatusCheck(kind: PayoutKind, api: ProviderApi): boolean {
  return ProviderPort.traits(api, kind).status !== null;
}
