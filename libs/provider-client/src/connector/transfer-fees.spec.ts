import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TransferFee } from '#contracts';
import { getBatchTransferStatusV2Adapter } from '../adapters/get-batch-transfer-status-v2.adapter.js';
import { getTransferStatusAdapter } from '../adapters/get-transfer-status.adapter.js';
import { getTransferStatusV2Adapter } from '../adapters/get-transfer-status-v2.adapter.js';
import { transferV2Adapter } from '../adapters/transfer-v2.adapter.js';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { type ProviderClient } from '../provider-client.js';
import { v2Hint } from '../webhooks/webhook-reader.js';
import { V1Connector } from './v1.connector.js';
import { V2Connector } from './v2.connector.js';

/*
 * The provider's fee of a transfer (issue 32), read from what the documents say it sends: v2
 * transfer objects carry `transfer_service_charge` and `transfer_service_tax` (numbers in rupees,
 * "absent in the RECEIVED response", provider-v2.md and the interface's "Transfer object"); v1
 * answers carry no fee (the interface's legacy transfer has no such field). The connector gives it
 * as exact decimal text with at least 2 decimals; a charge the provider sends, 0 included, is known;
 * none, or one that is not a plain non-negative decimal, is not known (never guessed).
 */

const http = (body: unknown) => ({ statusCode: 200, headers: {}, body: JSON.stringify(body) });

/** A client whose one call answers what the adapter makes of `body`, as the executor would. */
function clientAnswering<Req, D>(adapter: EndpointAdapter<Req, D>, method: string, body: unknown) {
  const { wire, ...rest } = adapter.classify(http(body));
  const result = {
    ...rest,
    diagnostics: { endpoint: adapter.name, requestId: 'r', sent: true, attempts: 1, durationMs: 1, ...wire },
  };
  const call = (name: string) =>
    name === method ? Promise.resolve(result) : Promise.reject(new Error(`called ${name}, not ${method}`));
  return { call } as unknown as ProviderClient;
}

const transfer = (fee: Record<string, unknown>, status = 'SUCCESS') => ({
  transfer_id: 'tr_1',
  cf_transfer_id: '987',
  status,
  status_code: status === 'SUCCESS' ? 'COMPLETED' : undefined,
  transfer_amount: 100,
  transfer_utr: 'UTR1',
  ...fee,
});

interface Case {
  readonly why: string;
  readonly sent: Record<string, unknown>;
  readonly fee: TransferFee | undefined;
}

const CASES: readonly Case[] = [
  {
    why: 'numbers, as the provider sends them',
    sent: { transfer_service_charge: 3, transfer_service_tax: 0.54 },
    fee: { charge: '3.00', tax: '0.54' },
  },
  {
    why: 'decimal text',
    sent: { transfer_service_charge: '5.00', transfer_service_tax: '0.90' },
    fee: { charge: '5.00', tax: '0.90' },
  },
  {
    why: 'a zero the provider sends is a known zero',
    sent: { transfer_service_charge: 0, transfer_service_tax: 0 },
    fee: { charge: '0.00', tax: '0.00' },
  },
  {
    why: 'more decimals than paise are kept, not rounded',
    sent: { transfer_service_charge: 2.75, transfer_service_tax: 0.495 },
    fee: { charge: '2.75', tax: '0.495' },
  },
  { why: 'a charge without tax', sent: { transfer_service_charge: 7.5 }, fee: { charge: '7.50' } },
  { why: 'no fee fields (the RECEIVED answer): not known', sent: {}, fee: undefined },
  { why: 'null fields: not known', sent: { transfer_service_charge: null }, fee: undefined },
  { why: 'a tax without a charge is no fee', sent: { transfer_service_tax: 0.54 }, fee: undefined },
  { why: 'a negative charge: not known', sent: { transfer_service_charge: -3 }, fee: undefined },
  { why: 'text that is no decimal: not known', sent: { transfer_service_charge: 'abc' }, fee: undefined },
  {
    why: 'a tax that is no decimal is left out',
    sent: { transfer_service_charge: 3, transfer_service_tax: '1e3' },
    fee: { charge: '3.00' },
  },
];

describe('the fee of a v2 transfer, as the connector gives it', () => {
  for (const c of CASES) {
    it(`status check: ${c.why}`, async () => {
      const body = transfer(c.sent);
      const v2 = new V2Connector(clientAnswering(getTransferStatusV2Adapter, 'getTransferStatusV2', body));
      const check = await v2.checkPayout('standard_transfer', 'tr_1', {});
      assert.ok(check.found, JSON.stringify(check));
      assert.equal(check.answer.status, 'SUCCESS');
      assert.deepEqual(check.answer.fee, c.fee);
    });
    it(`webhook: ${c.why}`, () => {
      const hint = v2Hint('TRANSFER_SUCCESS', '2026-11-21T10:15:30', transfer(c.sent));
      assert.deepEqual(
        hint.feeCharge === undefined
          ? undefined
          : hint.feeTax === undefined
            ? { charge: hint.feeCharge }
            : { charge: hint.feeCharge, tax: hint.feeTax },
        c.fee,
      );
    });
  }

  it('the answer to a send carries it when the transfer is settled at once', async () => {
    const body = transfer({ transfer_service_charge: 3, transfer_service_tax: 0.54 });
    const v2 = new V2Connector(clientAnswering(transferV2Adapter, 'transferV2', body));
    const sent = await v2.submitPayout(
      {
        kind: 'standard_transfer',
        transferId: 'tr_1',
        amount: '100.00',
        request: { transferId: 'tr_1', beneId: 'B1', amount: '100.00' },
      },
      {},
    );
    assert.equal(sent.result.outcome, 'success');
    assert.deepEqual(sent.fee, { charge: '3.00', tax: '0.54' });
  });

  it('a v2 batch status gives each entry its own fee', async () => {
    const body = {
      batch_transfer_id: 'b1',
      cf_batch_transfer_id: '5',
      status: 'COMPLETED',
      transfers: [
        { ...transfer({ transfer_service_charge: 3, transfer_service_tax: 0.54 }), transfer_id: 'e1' },
        { ...transfer({}), transfer_id: 'e2' },
      ],
    };
    const v2 = new V2Connector(
      clientAnswering(getBatchTransferStatusV2Adapter, 'getBatchTransferStatusV2', body),
    );
    const check = await v2.checkBatch('b1', {});
    assert.ok(check.found, JSON.stringify(check));
    assert.deepEqual(check.entries[0]?.fee, { charge: '3.00', tax: '0.54' });
    assert.equal(check.entries[1]?.fee, undefined);
  });
});

describe('v1 answers carry no fee', () => {
  it('a v1 status check of a paid transfer has no fee', async () => {
    const body = {
      status: 'SUCCESS',
      subCode: '200',
      message: 'Data retrieved',
      data: {
        transfer: { transferId: 'tr_1', referenceId: 55, amount: '10.00', status: 'SUCCESS', utr: 'U1' },
      },
    };
    const v1 = new V1Connector(clientAnswering(getTransferStatusAdapter, 'getTransferStatus', body));
    const check = await v1.checkPayout('standard_transfer', 'tr_1', {});
    assert.ok(check.found, JSON.stringify(check));
    assert.equal(check.answer.status, 'SUCCESS');
    assert.equal(check.answer.fee, undefined);
  });
});
