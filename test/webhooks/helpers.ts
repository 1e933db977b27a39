import { request } from 'node:http';
import { type PayoutEvent } from '#contracts';
import { REGISTERED_ENDPOINTS } from '#provider-client/testing';
import { type Stack } from '#test-support';

/** The stays-pending sandbox account: only a webhook (or a test's say-so) settles it. */
export const STAYS_PENDING = { bankAccount: '007711000031', ifsc: 'HDFC0000077' } as const;

export const ACCOUNT = 'default';

export function directTransfer(
  transferId: string,
  amount = '10.00',
  to: { bankAccount: string; ifsc: string } = STAYS_PENDING,
): object {
  return {
    type: 'payout.direct_transfer',
    data: { transferId, amount, beneDetails: { name: 'A Person', phone: '9876543210', ...to } },
  };
}

/** The service's /metrics as text. */
export async function metricsText(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}

/** Sum of the samples of `name` whose labels include every `labels` pair (and match `labelTest`). */
export async function metric(
  url: string,
  name: string,
  labels: Record<string, string> = {},
  labelTest: (labels: string) => boolean = () => true,
): Promise<number> {
  let sum = 0;
  for (const line of (await metricsText(url)).split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const l = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)) && labelTest(l))
      sum += Number(m[3]);
  }
  return sum;
}

/** Status calls this service made to the provider (every status endpoint, retries included). */
/**
 * Status calls of either generation, by the registry's status endpoints' metric labels (v2's is
 * `GET /payout/transfers`, which names no "status": matching on the word missed it).
 */
const STATUS_LABELS = REGISTERED_ENDPOINTS.filter((e) => e.adapter.rateClass === 'status').map(
  (e) => `endpoint="${e.adapter.method} ${e.adapter.path}"`,
);

export function statusCalls(url: string): Promise<number> {
  return metric(url, 'payouts_provider_request_duration_seconds_count', {}, (l) =>
    STATUS_LABELS.some((label) => l.includes(label)),
  );
}

/** Distinct events of one subject, in arrival order. */
export function distinctEvents(stack: Stack, id: string): PayoutEvent[] {
  const seen = new Set<string>();
  return stack.eventsOf(id).filter((e) => !seen.has(e.id) && Boolean(seen.add(e.id)));
}

export function statusesOf(stack: Stack, id: string): string[] {
  return distinctEvents(stack, id).map((e) => e.data.status);
}

/** The kept webhooks of a transferId: state and outcome. */
export async function keptWebhooks(
  stack: Stack,
  transferId: string,
): Promise<Array<{ state: string; outcome: string | null; event: string }>> {
  return stack.sql('SELECT state, outcome, event FROM provider_webhook WHERE transfer_id = $1 ORDER BY id', [
    transferId,
  ]);
}

/**
 * Posts a body from a chosen local address (127.0.0.x: any loopback address works on Linux), so a
 * test can be two senders: the status and the Retry-After header.
 */
export function postFrom(
  url: string,
  localAddress: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => {
        const ra: string | string[] | undefined = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter: typeof ra === 'string' ? ra : ra?.[0] });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Inserts a payout row as a fixture (a state a test cannot reach quickly otherwise). */
export async function insertPayout(
  stack: Stack,
  p: { transferId: string; kind: string; status: string; amount?: string },
): Promise<void> {
  await stack.sql(
    `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, version, attempt)
     VALUES ($1, $2, $3, 'test-hash', '{}'::jsonb, $4, $5, 3, 1)`,
    [ACCOUNT, p.transferId, p.kind, p.amount ?? '10.00', p.status],
  );
}

/** A time as the provider writes v2 `event_time`: `YYYY-MM-DDTHH:MM:SS`, India time, no zone. */
export function istTime(ms: number = Date.now()): string {
  return new Date(ms + 330 * 60_000).toISOString().slice(0, 19);
}

/**
 * A v2 webhook's `data` as the provider sends it (provider-v2.md, "Webhooks V2"): the v2 transfer
 * object, snake_case, its amount a JSON number. `over` replaces or adds fields.
 */
export function v2TransferData(
  transferId: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    transfer_id: transferId,
    cf_transfer_id: '1512355',
    status: 'SUCCESS',
    status_code: 'SENT_TO_BENEFICIARY',
    status_description: 'Transfer sent to the beneficiary bank',
    beneficiary_details: {
      beneficiary_id: 'bene_1',
      beneficiary_instrument_details: { bank_account_number: 'XXXXXXXX0031', ifsc: 'HDFC0000077' },
    },
    transfer_amount: 10,
    transfer_service_charge: 0,
    transfer_service_tax: 0,
    transfer_mode: 'BANK',
    transfer_utr: 'UTR0001',
    fundsource_id: 'CASHFREE_1',
    added_on: new Date().toISOString().slice(0, 19) + 'Z',
    updated_on: new Date().toISOString().slice(0, 19) + 'Z',
    ...over,
  };
}
