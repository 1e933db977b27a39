/**
 * The provider's available balance of an account as last read (issue 32, item 1 reads it), with
 * the time of the reading: what the funds view shows beside what we have committed.
 */
export interface BalanceReading {
  /** The available balance (the provider's ledger balance minus its pending), exact decimal. */
  readonly available: string;
  /** When the provider answered it. */
  readonly readAt: Date;
}

/** The latest balance reading of an account; null while none is known. */
export interface BalanceReadings {
  latest(accountId: string): Promise<BalanceReading | null>;
}

/**
 * No reading is known of any account. The wiring uses it until the connector's balance call
 * (libs/provider-client) is wired to a BalanceReadings that keeps its latest answers.
 */
export class NothingKnownBalances implements BalanceReadings {
  latest(): Promise<BalanceReading | null> {
    return Promise.resolve(null);
  }
}
