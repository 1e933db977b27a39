import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutStatus, type ProviderSubState } from '#contracts';
import { getBatchTransferStatusAdapter } from '../adapters/get-batch-transfer-status.adapter.js';
import { getBatchTransferStatusV2Adapter } from '../adapters/get-batch-transfer-status-v2.adapter.js';
import { getTransferStatusAdapter } from '../adapters/get-transfer-status.adapter.js';
import { getTransferStatusV2Adapter } from '../adapters/get-transfer-status-v2.adapter.js';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { TRANSFER_STATUSES } from '../core/transfer-statuses.js';
import { type ProviderClient } from '../provider-client.js';
import { mapProviderStatus } from '../core/status-mapping.js';
import { V1Connector } from './v1.connector.js';
import { V2Connector } from './v2.connector.js';

/*
 * What each transfer status the provider can answer MEANS, written from the documents
 * (shared/spec/provider-facts.md "Transfer status" and "Long waits, balance and approvals",
 * provider-v2.md "Transfer statuses", the interface's "Legacy transfer"), never read back from
 * the connector's table. Money rule: a status that does not prove the money stayed (an error, a
 * word we do not know) is in doubt (no ledger status: kept, asked again), never FAILED; a wait is
 * PENDING with the provider's sub-state; only the provider's own refusal is FAILED or REJECTED.
 */
type Verdict =
  | 'pending'
  | 'success'
  | 'failed/rejected'
  | 'failed/rejected+short-of-funds'
  | 'failed/reversed'
  | 'unknown';
interface Meaning {
  readonly status: string;
  /** v2 status_code; absent: the status alone (v1 has none). */
  readonly code?: string;
  /** The ledger status; undefined: in doubt, kept and asked again. */
  readonly ledger: PayoutStatus | undefined;
  readonly subState?: ProviderSubState;
  /** The status call's classification. */
  readonly verdict: Verdict;
  readonly why: string;
}

const wait = (
  status: string,
  code: string | undefined,
  subState: ProviderSubState | undefined,
  why: string,
) => ({ status, code, ledger: 'PENDING', subState, verdict: 'pending', why }) as const;

export const MEANINGS: readonly Meaning[] = [
  wait('RECEIVED', undefined, undefined, 'accepted for processing'),
  wait('RECEIVED', 'RECEIVED', undefined, 'accepted for processing'),
  wait('PENDING', undefined, undefined, 'awaiting the partner bank'),
  wait('PENDING', 'PENDING', undefined, 'awaiting the partner bank'),
  wait('PENDING', 'SENT_TO_BANK', 'sent_to_bank', 'with the beneficiary bank'),
  wait('PENDING', 'SCHEDULED_FOR_NEXT_WORKINGDAY', 'scheduled_next_working_day', 'next working day'),
  wait('QUEUED', undefined, 'queued', 'held for low balance up to 10 days, sent once funded'),
  wait('APPROVAL_PENDING', undefined, 'approval_pending', 'a person approves in the dashboard'),
  wait('APPROVAL_PENDING', 'APPROVAL_PENDING', 'approval_pending', 'a person approves in the dashboard'),
  // Listed under APPROVAL_PENDING on the v2 status page: a check that waits for a person, not a failure.
  wait('APPROVAL_PENDING', 'VELOCITY_CHECK_FAILED', 'approval_pending', 'velocity check, held for approval'),
  wait('APPROVAL_PENDING', 'TRANSFER_LIMIT_BREACH', 'approval_pending', 'limit check, held for approval'),
  wait('APPROVAL_PENDING', 'ANOMALY_DETECTION', 'approval_pending', 'anomaly check, held for approval'),
  wait('SENT_TO_BANK', undefined, 'sent_to_bank', 'with the beneficiary bank'),
  wait('SCHEDULED_FOR_NEXT_WORKINGDAY', undefined, 'scheduled_next_working_day', 'next working day'),
  wait('SCHEDULED', undefined, 'scheduled_next_working_day', 'held for a later (working) day'),
  { status: 'SUCCESS', ledger: 'SUCCESS', verdict: 'success', why: 'paid' },
  { status: 'SUCCESS', code: 'COMPLETED', ledger: 'SUCCESS', verdict: 'success', why: 'credited' },
  { status: 'SUCCESS', code: 'SENT_TO_BENEFICIARY', ledger: 'SUCCESS', verdict: 'success', why: 'debited' },
  { status: 'COMPLETED', ledger: 'SUCCESS', verdict: 'success', why: 'the v2 status code as a status' },
  { status: 'FAILED', ledger: 'FAILED', verdict: 'failed/rejected', why: 'failed at the bank or provider' },
  {
    status: 'FAILED',
    code: 'INSUFFICIENT_BALANCE',
    ledger: 'FAILED',
    // A refusal like any (the money stayed), counted as a bounce (issue 32).
    verdict: 'failed/rejected+short-of-funds',
    why: 'failed: the balance could not fund it (at once, or after waiting QUEUED)',
  },
  // Under status FAILED the status decides: the same code is a failure there.
  {
    status: 'FAILED',
    code: 'VELOCITY_CHECK_FAILED',
    ledger: 'FAILED',
    verdict: 'failed/rejected',
    why: 'failed: velocity',
  },
  { status: 'REJECTED', ledger: 'REJECTED', verdict: 'failed/rejected', why: 'rejected by the provider' },
  {
    status: 'REJECTED',
    code: 'INVALID_MODE_FOR_PYID',
    ledger: 'REJECTED',
    verdict: 'failed/rejected',
    why: 'rejected by the provider',
  },
  {
    status: 'MANUALLY_REJECTED',
    ledger: 'REJECTED',
    verdict: 'failed/rejected',
    why: 'rejected by a team member',
  },
  { status: 'REVERSED', ledger: 'REVERSED', verdict: 'failed/reversed', why: 'returned by the bank' },
  // "Transfer triggered; no response from bank": in doubt, never a negative state (issue 29).
  { status: 'ERROR', ledger: undefined, verdict: 'unknown', why: 'no response from the bank: in doubt' },
  { status: 'ON_HOLD', ledger: undefined, verdict: 'unknown', why: 'a word not in any document' },
  { status: 'PROCESSING_ERROR', ledger: undefined, verdict: 'unknown', why: 'a word not in any document' },
];

/** The statuses the documents list for v1 (no status code there). */
const statusOnly = MEANINGS.filter((m) => m.code === undefined);

const http = (body: unknown) => ({ statusCode: 200, headers: {}, body: JSON.stringify(body) });

/** A client whose one call answers what the adapter makes of `body`, as the executor would. */
function clientAnswering<Req, D>(adapter: EndpointAdapter<Req, D>, method: string, body: unknown) {
  const { wire, ...rest } = adapter.classify(http(body));
  const result = {
    ...rest,
    diagnostics: {
      endpoint: adapter.name,
      requestId: 'r',
      sent: true,
      attempts: 1,
      durationMs: 1,
      ...wire,
      evidence: wire.subCode ?? wire.code,
    },
  };
  const call = (name: string) =>
    name === method ? Promise.resolve(result) : Promise.reject(new Error(`called ${name}, not ${method}`));
  return { call } as unknown as ProviderClient;
}

function verdictOf(r: { outcome: string; kind?: string; shortOfFunds?: true }): string {
  return r.outcome === 'failed'
    ? `failed/${r.kind ?? ''}${r.shortOfFunds ? '+short-of-funds' : ''}`
    : r.outcome;
}

const v1Status = (status: string) => ({
  status: 'SUCCESS',
  subCode: '200',
  message: 'Data retrieved',
  data: { transfer: { transferId: 'tr_1', referenceId: 55, amount: '10.00', status, utr: '' } },
});
const v2Status = (status: string, code?: string) => ({
  transfer_id: 'tr_1',
  cf_transfer_id: '987',
  status,
  ...(code === undefined ? {} : { status_code: code }),
  transfer_amount: 10,
});

describe('a transfer status means what the documents say (v1 status call)', () => {
  for (const m of statusOnly) {
    it(`${m.status}: ${m.why} -> ${m.ledger ?? 'in doubt'}${m.subState ? ` (${m.subState})` : ''}`, async () => {
      const body = v1Status(m.status);
      assert.equal(verdictOf(getTransferStatusAdapter.classify(http(body))), m.verdict);
      const c = new V1Connector(clientAnswering(getTransferStatusAdapter, 'getTransferStatus', body));
      const check = await c.checkPayout('standard_transfer', 'tr_1', {});
      assert.ok(check.found, JSON.stringify(check));
      assert.equal(check.answer.status, m.ledger);
      assert.equal(check.answer.subState, m.subState);
      assert.equal(check.answer.raw, m.status, 'the provider word is kept for people');
      assert.equal(mapProviderStatus(m.status), m.ledger);
    });
  }
});

describe('a v1 failure says when the balance could not fund it (its reason: v1 has no code)', () => {
  const v1Failed = (status: string, reason: string) => ({
    ...v1Status(status),
    data: { transfer: { ...v1Status(status).data.transfer, reason } },
  });
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ['FAILED', 'Insufficient balance in account', 'failed/rejected+short-of-funds'],
    ['FAILED', 'INSUFFICIENT_BALANCE', 'failed/rejected+short-of-funds'],
    ['REJECTED', 'insufficient  balance', 'failed/rejected+short-of-funds'],
    ['FAILED', 'Beneficiary bank offline', 'failed/rejected'],
    // A reversal returned money that had left: not a bounce for the balance, whatever it says.
    ['REVERSED', 'Insufficient balance', 'failed/reversed'],
    ['PENDING', 'Insufficient balance', 'pending'],
  ];
  for (const [status, reason, verdict] of cases)
    it(`${status} "${reason}" -> ${verdict}`, () => {
      assert.equal(verdictOf(getTransferStatusAdapter.classify(http(v1Failed(status, reason)))), verdict);
    });
});

describe('a transfer status means what the documents say (v2 status call)', () => {
  for (const m of MEANINGS) {
    const label = `${m.status}${m.code ? `/${m.code}` : ''}`;
    it(`${label}: ${m.why} -> ${m.ledger ?? 'in doubt'}${m.subState ? ` (${m.subState})` : ''}`, async () => {
      const body = v2Status(m.status, m.code);
      assert.equal(verdictOf(getTransferStatusV2Adapter.classify(http(body))), m.verdict);
      const c = new V2Connector(clientAnswering(getTransferStatusV2Adapter, 'getTransferStatusV2', body));
      const check = await c.checkPayout('standard_transfer', 'tr_1', {});
      assert.ok(check.found, JSON.stringify(check));
      assert.equal(check.answer.status, m.ledger);
      assert.equal(check.answer.subState, m.subState);
    });
  }
});

/** A batch entry takes the same path as a payout: an in-doubt status is never a negative one. */
describe('a batch entry status means the same', () => {
  for (const m of statusOnly) {
    it(`v1 entry ${m.status} -> ${m.ledger ?? 'kept as the provider said it'}`, async () => {
      const body = {
        status: 'SUCCESS',
        subCode: 200,
        message: 'Data retrieved',
        data: { referenceId: 7, transfers: [{ transferId: 'e1', amount: '10.00', status: m.status }] },
      };
      const c = new V1Connector(
        clientAnswering(getBatchTransferStatusAdapter, 'getBatchTransferStatus', body),
      );
      const check = await c.checkBatch('b1', {});
      assert.ok(check.found, JSON.stringify(check));
      assert.equal(check.entries[0]?.status, m.ledger ?? m.status);
      assert.equal(check.entries[0]?.subState, m.subState);
    });
  }
  for (const m of MEANINGS) {
    const label = `${m.status}${m.code ? `/${m.code}` : ''}`;
    it(`v2 entry ${label} -> ${m.ledger ?? 'kept as the provider said it'}`, async () => {
      const body = {
        batch_transfer_id: 'b1',
        cf_batch_transfer_id: '5',
        status: 'PENDING',
        transfers: [v2Status(m.status, m.code)],
      };
      const c = new V2Connector(
        clientAnswering(getBatchTransferStatusV2Adapter, 'getBatchTransferStatusV2', body),
      );
      const check = await c.checkBatch('b1', {});
      assert.ok(check.found, JSON.stringify(check));
      assert.equal(check.entries[0]?.status, m.ledger ?? m.status);
      assert.equal(check.entries[0]?.subState, m.subState);
    });
  }
});

describe('every status the connector knows has a meaning written here', () => {
  it('no status of the shared table is left untested', () => {
    const written = new Set(MEANINGS.map((m) => (m.code ? `${m.status}/${m.code}` : m.status)));
    const missing = Object.keys(TRANSFER_STATUSES).filter((k) => !written.has(k));
    assert.deepEqual(missing, []);
  });
});
