/** Why an operation was refused. Only the HTTP edge maps these to status codes. */
export enum OperationsErrorCode {
  NotFound = 'not_found',
  InvalidInput = 'invalid_input',
  /** The payout is final; there is nothing left to check. */
  Terminal = 'terminal',
  /** The executor has not sent it yet: no answer to check. */
  NotSubmitted = 'not_submitted',
  /** A worker holds the row (a call or a check is in flight); asking again shortly is safe. */
  InFlight = 'in_flight',
  /** The kind has no status endpoint: checking again cannot establish anything. */
  NoStatusEndpoint = 'no_status_endpoint',
  /** The row changed while the operation ran. */
  ConcurrentChange = 'concurrent_change',
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
