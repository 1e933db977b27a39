import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ProviderSubState } from '#contracts';
import { cardpayAdapter } from '../adapters/cardpay.adapter.js';
import { directTransferAdapter } from '../adapters/direct-transfer.adapter.js';
import { processValidatedPayoutAdapter } from '../adapters/process-validated-payout.adapter.js';
import { requestTransferAdapter } from '../adapters/request-transfer.adapter.js';
import { transferV2Adapter } from '../adapters/transfer-v2.adapter.js';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { type ProviderClient } from '../provider-client.js';
import { type ConnectorKind, type PayoutSubmitted, type PayoutToSend } from './connector.port.js';
import { V1Connector } from './v1.connector.js';
import { V2Connector } from './v2.connector.js';

/*
 * The provider's long waits in the answers to a send (issue 29), as the documents word them: the
 * sync v1/v1.2 pages give SUCCESS/201 "Scheduled for next working day" (not paid yet: a bank
 * holiday can hold it for days, and a reversal can follow), PENDING/201 "Awaiting beneficiary
 * bank; or pending at the bank"; v2 answers the transfer object, whose status and code say the wait.
 */
const http = (body: unknown) => ({ statusCode: 200, headers: {}, body: JSON.stringify(body) });

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

const data = { referenceId: '123', utr: '', acknowledged: 0 };
const legacy = (status: string, subCode: string, message: string) => ({ status, subCode, message, data });

const PAYOUTS: { readonly [K in ConnectorKind]?: PayoutToSend<K> } = {
  standard_transfer: {
    kind: 'standard_transfer',
    transferId: 't1',
    amount: '10.00',
    request: { transferId: 't1', amount: '10.00', beneId: 'b1' },
  },
  direct_transfer: {
    kind: 'direct_transfer',
    transferId: 't1',
    amount: '10.00',
    request: {
      transferId: 't1',
      amount: '10.00',
      beneDetails: { name: 'A B', bankAccount: '026291800001191', ifsc: 'YESB0000262' },
    },
  },
  card_payout: {
    kind: 'card_payout',
    transferId: 't1',
    amount: '10.00',
    request: { transferId: 't1', amount: '10.00', cardToken: 'tok', cardType: 'DEBIT' },
  },
  validated_upi_payout: {
    kind: 'validated_upi_payout',
    transferId: 't1',
    amount: '10.00',
    request: { transferId: 't1', amount: '10.00', transferToken: 'tt' },
  },
};

interface Case {
  readonly what: string;
  readonly api: 'v1' | 'v2';
  readonly kind: ConnectorKind;
  readonly adapter: EndpointAdapter<never, unknown>;
  readonly method: string;
  readonly body: unknown;
  readonly outcome: 'pending' | 'success';
  readonly subState: ProviderSubState | undefined;
}

const v2 = (status: string, code?: string) => ({
  transfer_id: 't1',
  cf_transfer_id: '99',
  status,
  ...(code ? { status_code: code } : {}),
  transfer_amount: 10,
});

const a = <Req, D>(x: EndpointAdapter<Req, D>) => x as unknown as EndpointAdapter<never, unknown>;

const CASES: readonly Case[] = [
  ...(
    [
      ['standard_transfer', a(requestTransferAdapter), 'requestTransfer'],
      ['direct_transfer', a(directTransferAdapter), 'directTransfer'],
    ] as const
  ).flatMap(([kind, adapter, method]): Case[] => [
    {
      what: `${method} SUCCESS/201 "Scheduled for next working day" is not paid yet`,
      api: 'v1',
      kind,
      adapter,
      method,
      body: legacy('SUCCESS', '201', 'Scheduled for next working day'),
      outcome: 'pending',
      subState: 'scheduled_next_working_day',
    },
    {
      what: `${method} PENDING/201 "Awaiting beneficiary bank" is with the bank`,
      api: 'v1',
      kind,
      adapter,
      method,
      body: legacy('PENDING', '201', 'Awaiting beneficiary bank confirmation'),
      outcome: 'pending',
      subState: 'sent_to_bank',
    },
    {
      what: `${method} PENDING/202 "Request received" has no wait named`,
      api: 'v1',
      kind,
      adapter,
      method,
      body: legacy('PENDING', '202', 'Request received'),
      outcome: 'pending',
      subState: undefined,
    },
    {
      what: `${method} SUCCESS/200 "Transfer completed" is paid`,
      api: 'v1',
      kind,
      adapter,
      method,
      body: legacy('SUCCESS', '200', 'Transfer completed'),
      outcome: 'success',
      subState: undefined,
    },
  ]),
  {
    what: 'cardpay PENDING/201 "Pending at the bank" is with the bank',
    api: 'v1',
    kind: 'card_payout',
    adapter: a(cardpayAdapter),
    method: 'cardpay',
    body: legacy('PENDING', '201', 'Pending at the bank'),
    outcome: 'pending',
    subState: 'sent_to_bank',
  },
  ...(
    [
      ['QUEUED', undefined, 'queued'],
      ['APPROVAL_PENDING', 'APPROVAL_PENDING', 'approval_pending'],
      ['APPROVAL_PENDING', 'VELOCITY_CHECK_FAILED', 'approval_pending'],
      ['APPROVAL_PENDING', 'TRANSFER_LIMIT_BREACH', 'approval_pending'],
      ['APPROVAL_PENDING', 'ANOMALY_DETECTION', 'approval_pending'],
      ['PENDING', 'SCHEDULED_FOR_NEXT_WORKINGDAY', 'scheduled_next_working_day'],
      ['PENDING', 'SENT_TO_BANK', 'sent_to_bank'],
      ['SENT_TO_BANK', undefined, 'sent_to_bank'],
      ['RECEIVED', 'RECEIVED', undefined],
    ] as const
  ).flatMap(([status, code, subState]): Case[] => [
    {
      what: `transferV2 ${status}/${code ?? '-'} waits (${subState ?? 'no sub-state'})`,
      api: 'v2',
      kind: 'standard_transfer',
      adapter: a(transferV2Adapter),
      method: 'transferV2',
      body: v2(status, code),
      outcome: 'pending',
      subState,
    },
    {
      what: `processValidatedPayout ${status}/${code ?? '-'} waits (${subState ?? 'no sub-state'})`,
      api: 'v1',
      kind: 'validated_upi_payout',
      adapter: a(processValidatedPayoutAdapter),
      method: 'processValidatedPayout',
      body: v2(status, code),
      outcome: 'pending',
      subState,
    },
  ]),
];

describe("a send's answer names the provider's long wait, never SUCCESS before it is paid", () => {
  for (const c of CASES) {
    it(c.what, async () => {
      const client = clientAnswering(c.adapter, c.method, c.body);
      const connector = c.api === 'v1' ? new V1Connector(client) : new V2Connector(client);
      const p = PAYOUTS[c.kind] as PayoutToSend<ConnectorKind>;
      const s: PayoutSubmitted = await connector.submitPayout(p, {});
      assert.equal(s.result.outcome, c.outcome, JSON.stringify(s.result));
      assert.equal(s.subState, c.subState);
    });
  }
});
