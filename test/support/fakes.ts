import { type PayoutRow } from '#ledger';

/** A fake that fails on any call the test did not set up. */
export function strictFake<T extends object>(name: string, impl: Partial<Record<keyof T, unknown>> = {}): T {
  return new Proxy(impl, {
    get(target, prop) {
      if (prop in target) return (target as Record<string | symbol, unknown>)[prop];
      if (prop === 'then') return undefined;
      throw new Error(`unexpected call: ${name}.${String(prop)}`);
    },
  }) as T;
}

/** A payout row as the repository returns it: an UNKNOWN direct transfer, unless told otherwise. */
export function payoutRow(over: Partial<PayoutRow> = {}): PayoutRow {
  return {
    id: '1',
    accountId: 'default',
    transferId: 't1',
    kind: 'direct_transfer',
    requestHash: 'h',
    request: {},
    requestSecrets: null,
    lastError: null,
    amount: '10.00',
    status: 'UNKNOWN',
    version: 5,
    attempt: 1,
    statusCode: null,
    reason: null,
    referenceId: null,
    svcTransferId: null,
    utr: null,
    requestId: null,
    nextCheckAt: null,
    checkCount: 1,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    stateChangedAt: new Date(0),
    ...over,
  };
}
