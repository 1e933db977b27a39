import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeWebhook, v1Fields } from './webhook.encode.js';
import { eventInVersion, type TransferEvent } from './webhook.types.js';

const at = Date.parse('2026-11-24T00:00:00.000Z');
const success: TransferEvent = {
  kind: 'transfer',
  type: 'TRANSFER_SUCCESS',
  at,
  transferId: 'T1',
  referenceId: '100001',
  utr: 'SBX100001',
  acknowledged: 1,
  reason: '',
  status: 'SUCCESS',
  amount: '10.50',
};

// Expected signatures computed outside this code (openssl dgst -sha256 -hmac secret -binary | base64).
describe('webhook encoding', () => {
  it('v1: form fields, signature over the values sorted by field name', () => {
    const { body, headers } = encodeWebhook(success, 'v1', 'secret', 0);
    assert.equal(headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(body)), {
      event: 'TRANSFER_SUCCESS',
      transferId: 'T1',
      referenceId: '100001',
      utr: 'SBX100001',
      acknowledged: '1',
      eventTime: '2026-11-24T00:00:00.000Z',
      reason: '',
      // "1" + "TRANSFER_SUCCESS" + "2026-11-24T00:00:00.000Z" + "" + "100001" + "T1" + "SBX100001"
      signature: 'sn5sVEWGBACHDTc7BJLQynuPNi/G3jfsVxEXsrZtVwI=',
    });
  });

  it("v2: JSON body in the provider's shape (the v2 transfer object), signature over timestamp + raw body", () => {
    const failed: TransferEvent = {
      ...success,
      type: 'TRANSFER_FAILED',
      utr: '',
      acknowledged: 0,
      reason: 'BENEFICIARY_BANK_OFFLINE',
      status: 'FAILED',
      statusCode: 'BENE_BANK_DECLINED',
      record: {
        svcTransferId: '100001',
        mode: 'banktransfer',
        beneId: '',
        bankAccount: '026291800001191',
        ifsc: 'YESB0000262',
        vpa: '',
        paymentInstrumentId: '',
        addedOn: at - 60_000,
      },
    };
    const { body, headers } = encodeWebhook(failed, 'v2', 'secret', 1_795_000_000_000);
    assert.equal(
      body,
      '{"type":"TRANSFER_FAILED","event_time":"2026-11-24T05:30:00","data":{"transfer_id":"T1","cf_transfer_id":"100001",' +
        '"status":"FAILED","status_code":"BENE_BANK_DECLINED","status_description":"BENEFICIARY_BANK_OFFLINE",' +
        '"beneficiary_details":{"beneficiary_id":"","beneficiary_instrument_details":{"bank_account_number":"XXXXXXXXXXX1191","ifsc":"YESB0000262"}},' +
        '"transfer_amount":10.50,"transfer_service_charge":0,"transfer_service_tax":0,"transfer_mode":"banktransfer",' +
        '"added_on":"2026-11-23T23:59:00Z","updated_on":"2026-11-24T00:00:00Z"}}',
    );
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['x-webhook-timestamp'], '1795000000000');
    assert.equal(headers['x-webhook-signature'], 'xyMd1GUUrCMRfOda1Zg8OzSRebyw0W4idYuhvxAUgrA=');
  });

  it('v2: a refused batch entry (no transfer made) and a rejected batch carry their ids', () => {
    const entry = encodeWebhook(
      { ...success, type: 'TRANSFER_REJECTED', utr: '', status: 'REJECTED', reason: 'Invalid IFSC' },
      'v2',
      'secret',
      0,
    );
    assert.deepEqual((JSON.parse(entry.body) as { data: unknown }).data, {
      transfer_id: 'T1',
      status: 'REJECTED',
      status_code: 'REJECTED',
      status_description: 'Invalid IFSC',
      transfer_amount: 10.5,
    });
    const bulk = encodeWebhook(
      {
        kind: 'bulk',
        type: 'BULK_TRANSFER_REJECTED',
        at,
        batchTransferId: 'B1',
        svcBatchTransferId: '7',
        reason: 'x',
      },
      'v2',
      'secret',
      0,
    );
    assert.deepEqual(JSON.parse(bulk.body), {
      type: 'BULK_TRANSFER_REJECTED',
      event_time: '2026-11-24T05:30:00',
      data: {
        batch_transfer_id: 'B1',
        cf_batch_transfer_id: '7',
        status: 'REJECTED',
        status_description: 'x',
      },
    });
  });

  it('account events carry the seven standard v1 fields (empty when they do not apply) plus their own', () => {
    const fields = v1Fields({
      kind: 'account',
      type: 'LOW_BALANCE_ALERT',
      at,
      utr: '',
      reason: '',
      fields: { currentBalance: '98.00' },
    });
    assert.deepEqual(fields, {
      event: 'LOW_BALANCE_ALERT',
      transferId: '',
      referenceId: '',
      utr: '',
      acknowledged: '',
      eventTime: '2026-11-24T00:00:00.000Z',
      reason: '',
      currentBalance: '98.00',
    });
  });

  it('which events each format has', () => {
    const bulk = {
      kind: 'bulk',
      type: 'BULK_TRANSFER_REJECTED',
      at,
      batchTransferId: 'B',
      reason: 'x',
    } as const;
    const credit = {
      kind: 'account',
      type: 'CREDIT_CONFIRMATION',
      at,
      utr: 'u',
      reason: '',
      fields: {},
    } as const;
    assert.deepEqual(
      [success, bulk, credit].map((e) => [eventInVersion(e, 'v1'), eventInVersion(e, 'v2')]),
      [
        [true, true],
        [false, true],
        [true, false],
      ],
    );
  });
});
