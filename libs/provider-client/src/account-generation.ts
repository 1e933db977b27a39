import { type ProviderApi } from '#contracts';
import { type ProviderClientConfig } from './provider-client.config.js';

/** Which of the provider's API generations an account speaks. */
export type ApiGeneration = ProviderApi;

/**
 * An account's generation, read as the client options read it (`accountApi`): its `api` in
 * PROVIDER_ACCOUNTS (default v1), the primary's PROVIDER_API_GENERATION. An account not configured
 * at all gets the primary's: the client refuses it anyway.
 */
export function accountApiGeneration(
  c: Pick<ProviderClientConfig, 'PROVIDER_ACCOUNT_ID' | 'PROVIDER_API_GENERATION' | 'PROVIDER_ACCOUNTS'>,
): (accountId: string) => ApiGeneration {
  const byId = new Map<string, ApiGeneration>([[c.PROVIDER_ACCOUNT_ID, c.PROVIDER_API_GENERATION]]);
  for (const a of c.PROVIDER_ACCOUNTS ?? []) byId.set(a.accountId, a.api ?? 'v1');
  return (accountId) => byId.get(accountId) ?? c.PROVIDER_API_GENERATION;
}

/**
 * The accounts whose "still not found" settles an internal transfer FAILED: the primary with
 * PROVIDER_NOT_RECEIVED_FAILS, each PROVIDER_ACCOUNTS entry with `notReceivedFails` (default
 * false: a person decides, issue 29).
 */
export function accountsWhereNotReceivedFails(
  c: Pick<ProviderClientConfig, 'PROVIDER_ACCOUNT_ID' | 'PROVIDER_NOT_RECEIVED_FAILS' | 'PROVIDER_ACCOUNTS'>,
): ReadonlySet<string> {
  const on = new Set<string>();
  if (c.PROVIDER_NOT_RECEIVED_FAILS) on.add(c.PROVIDER_ACCOUNT_ID);
  for (const a of c.PROVIDER_ACCOUNTS ?? []) {
    if (a.notReceivedFails === true) on.add(a.accountId);
    else on.delete(a.accountId);
  }
  return on;
}
