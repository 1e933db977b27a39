/** Why an operation was refused. Only the HTTP edge maps these to status codes. */
export enum OperationsErrorCode {
  NotFound = 'not_found',
  InvalidInput = 'invalid_input',
  /** The operator's role does not allow it, or it is their own proposal. */
  Forbidden = 'forbidden',
  /** The payout is final; there is nothing left to check. */
  Terminal = 'terminal',
  /** The executor has not sent it yet: no answer to check. */
  NotSubmitted = 'not_submitted',
  /** A worker holds the row (a call or a check is in flight); asking again shortly is safe. */
  InFlight = 'in_flight',
  /** The kind has no status endpoint: checking again cannot establish anything. */
  NoStatusEndpoint = 'no_status_endpoint',
  /** The row changed while the operation ran, or since the version the operator saw. */
  ConcurrentChange = 'concurrent_change',
  /** Only a payout held for funds (HELD_FOR_FUNDS) can be cancelled while held. */
  NotHeld = 'not_held',
  /** Only a REQUIRES_ATTENTION payout is settled by a person. */
  NotRequiringAttention = 'not_requiring_attention',
  /** The payout already has an open proposal. */
  ProposalOpen = 'proposal_open',
  /** The proposal was already approved, rejected or closed as stale. */
  ProposalDecided = 'proposal_decided',
  /** The beneficiary exists with other details (or its account is registered under another id). */
  Conflict = 'conflict',
  /** The provider refused it (e.g. the source account, a virtual account). */
  ProviderRefused = 'provider_refused',
  /** The provider could not be asked (rate limit, credentials, configuration): nothing was done. */
  ProviderUnavailable = 'provider_unavailable',
  /** The provider's answer was unclear and a check did not settle it: asking again is safe. */
  ProviderUnclear = 'provider_unclear',
}

export class OperationsError extends Error {
  constructor(
    readonly code: OperationsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OperationsError';
  }
}
