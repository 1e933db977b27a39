/**
 * The provider's API generations. An account sends on one; a payout or batch is checked, re-sent
 * and read on the generation it was first sent on (its row's `provider_api`), whatever the
 * account says now.
 */
export const PROVIDER_APIS = ['v1', 'v2'] as const;
export type ProviderApi = (typeof PROVIDER_APIS)[number];

export function isProviderApi(v: unknown): v is ProviderApi {
  return v === 'v1' || v === 'v2';
}
