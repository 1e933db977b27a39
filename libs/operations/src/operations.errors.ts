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
  /** Only a REQUIRES_ATTENTION payout is settled by a person. */
  NotRequiringAttention = 'not_requiring_attention',
  /** The payout already has an open proposal. */
  ProposalOpen = 'proposal_open',
  /** The proposal was already approved, rejected or closed as stale. */
  ProposalDecided = 'proposal_decided',
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
