import pg from 'pg';
import { PayoutRepository, type PayoutRow } from '#ledger';
import { type Stack } from '#test-support';

/** The sandbox's test accounts (docs/SANDBOX.md "Test data") used by these tests. */
export const ACCOUNTS = {
  success: { bankAccount: '026291800001191', ifsc: 'YESB0000262' },
  invalid: { bankAccount: '026291800001190', ifsc: 'YESB0000262' },
  pendingThenSuccess: { bankAccount: '00224412311300', ifsc: 'YESB0000001' },
  pendingThenFailure: { bankAccount: '7766666351000', ifsc: 'YESB0000001' },
  successThenReversed: { bankAccount: '02014457596969', ifsc: 'CITI0000001' },
  hangThenSuccess: { bankAccount: '34978321547298', ifsc: 'KKBK0000001' },
  staysPending: { bankAccount: '007711000031', ifsc: 'HDFC0000077' },
} as const;

export function directTransfer(
  transferId: string,
  to: { bankAccount: string; ifsc: string },
  amount = '10.00',
): object {
  return {
    type: 'payout.direct_transfer',
    data: {
      transferId,
      amount,
      beneDetails: { name: 'A Person', phone: '9876543210', ...to },
    },
  };
}

/** A counter's value (summed over the label sets that match `labels`) from a service's /metrics. */
export async function metric(
  url: string,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const l = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

/** Reads ledger rows through the repository (tests write no SQL of their own). */
export class LedgerProbe {
  private readonly pool: pg.Pool;
  private readonly payouts = new PayoutRepository();

  constructor(stack: Stack) {
    this.pool = new pg.Pool({ connectionString: stack.db.url, max: 2 });
  }

  async row(accountId: string, transferId: string): Promise<PayoutRow> {
    const r = await this.payouts.findOne(this.pool, accountId, transferId);
    if (!r) throw new Error(`no ledger row for ${transferId}`);
    return r;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Statuses of one transferId's events, in the order they arrived (redeliveries dropped). */
export function statusesOf(stack: Stack, id: string): string[] {
  const seen = new Set<string>();
  return stack
    .eventsOf(id)
    .filter((e) => !seen.has(e.id) && Boolean(seen.add(e.id)))
    .map((e) => e.data.status);
}
