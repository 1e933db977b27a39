import { type ProviderSubState } from '#contracts';

/**
 * Every provider answer (or the lack of one) is reduced to one of these classes. Callers branch
 * on the class only; the raw codes are kept in `diagnostics` for people, never for control flow.
 */
export const OUTCOME_CLASSES = [
  'success',
  'pending',
  'failed',
  'unknown',
  'retry-safe',
  'auth-refresh',
  'fatal-config',
] as const;
export type OutcomeClass = (typeof OUTCOME_CLASSES)[number];

/**
 * Why a `failed` is terminal. `duplicate` means the provider already holds this id: for an
 * initiation re-sent after an unclear answer that is "it was sent; check the status".
 */
export type FailureKind = 'rejected' | 'duplicate' | 'invalid-request' | 'not-found' | 'reversed' | 'expired';

/** What was seen on the wire, for support. Never holds a secret: messages are scrubbed and capped. */
export interface Diagnostics {
  /** The endpoint's name in the registry (endpoints/adapter-registry.ts). */
  readonly endpoint: string;
  readonly requestId: string;
  /** False when the request never left this process (local validation, connect failure, auth). */
  readonly sent: boolean;
  readonly attempts: number;
  /**
   * True when the client re-sent this call by itself (after a rate-limit answer) and an earlier
   * attempt got an answer: it reached something that may have forwarded it to the provider (an
   * intermediary's 429), so the provider may hold it. A refusal that follows is then a refusal of
   * a re-send, not proof the payout was refused (issue 29). Absent when no earlier attempt could
   * have reached the provider (none, never sent, or refused unread: "Token is not valid").
   */
  readonly earlierAttemptMayHaveReached?: true;
  readonly durationMs: number;
  readonly httpStatus?: number;
  readonly status?: string;
  readonly subCode?: string;
  readonly code?: string;
  readonly message?: string;
  /** Transport error code (e.g. UND_ERR_HEADERS_TIMEOUT) when there was no answer. */
  readonly errorCode?: string;
  /**
   * The provider's code for this answer, as evidence to keep (a payout's status_code, a reply's
   * providerCode): v1's subCode or v2's error or status code, chosen here so the service never
   * reads either field (issue 31).
   */
  readonly evidence?: string;
}

export type ProviderResult<D> =
  | { readonly outcome: 'success'; readonly data: D; readonly diagnostics: Diagnostics }
  | {
      readonly outcome: 'pending';
      readonly data?: D;
      /**
       * Where the transfer waits at the provider, when the answer says (queued, approval pending,
       * scheduled for the next working day, sent to the bank): the service's words, issue 29.
       */
      readonly subState?: ProviderSubState;
      readonly diagnostics: Diagnostics;
    }
  | {
      readonly outcome: 'failed';
      readonly kind: FailureKind;
      readonly reason: string;
      /**
       * The provider refused or failed the transfer for the account's balance (issue 32): the
       * money stayed, as with any refusal. Counted (payouts_provider_balance_refusals_total) so
       * finance sees bounces; never read for control flow.
       */
      readonly shortOfFunds?: true;
      readonly data?: D;
      readonly diagnostics: Diagnostics;
    }
  | {
      readonly outcome: 'unknown';
      readonly reason: string;
      readonly data?: D;
      readonly diagnostics: Diagnostics;
    }
  | {
      readonly outcome: 'retry-safe';
      readonly reason: string;
      readonly retryAfterMs?: number;
      readonly diagnostics: Diagnostics;
    }
  | { readonly outcome: 'auth-refresh'; readonly reason: string; readonly diagnostics: Diagnostics }
  | { readonly outcome: 'fatal-config'; readonly reason: string; readonly diagnostics: Diagnostics };

/** What was read from one answer, before the executor adds attempts, timing and the request id. */
export interface WireFacts {
  readonly httpStatus?: number;
  readonly status?: string;
  readonly subCode?: string;
  readonly code?: string;
  readonly message?: string;
  readonly errorCode?: string;
}

/** A classification of one answer: the result minus diagnostics, plus the wire facts. */
export type Classified<D> = DistributiveOmit<ProviderResult<D>, 'diagnostics'> & { readonly wire: WireFacts };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
