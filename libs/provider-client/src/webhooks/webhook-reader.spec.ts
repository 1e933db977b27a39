import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import {
  parseJsonKeepingNumbers,
  type WebhookHint,
  type WebhookReading,
  webhookReaders,
} from './webhook-reader.js';

const SECRET = 'sekret';
const NOW = Date.UTC(2026, 10, 24, 8, 9, 25);
const readers = webhookReaders({ replayWindowMs: 300_000, v1MaxAgeMs: 3_600_000, v1MaxAheadMs: 300_000 });

const mac = (text: string, secret = SECRET) => createHmac('sha256', secret).update(text).digest('base64');

/** A v2 delivery signed as the provider signs it, over the body text exactly as given. */
function v2(body: string, timestamp = String(NOW), secret = SECRET): WebhookReading {
  return readers.v2.read(
    {
      version: 'v2',
      headers: { 'x-webhook-timestamp': timestamp, 'x-webhook-signature': mac(timestamp + body, secret) },
      rawBody: Buffer.from(body),
    },
    SECRET,
    NOW,
  );
}

function v1(fields: Record<string, string>, secret = SECRET): WebhookReading {
  const text = Object.keys(fields)
    .sort()
    .map((k) => fields[k])
    .join('');
  const body = new URLSearchParams({ ...fields, signature: mac(text, secret) }).toString();
  return readers.v1.read({ version: 'v1', headers: {}, rawBody: Buffer.from(body) }, SECRET, NOW);
}

const hintOf = (r: WebhookReading): WebhookHint => {
  assert.ok('hint' in r, `a hint, not ${JSON.stringify(r)}`);
  return r.hint;
};

// provider-v2.md, "Webhooks V2": the provider's TRANSFER_SUCCESS sample's shape, written as text
// so the amount's literal is what the wire carries.
const TRANSFER_SUCCESS = `{"type":"TRANSFER_SUCCESS","event_time":"2026-11-24T13:39:20","data":{
  "transfer_id":"JUNOB2018","cf_transfer_id":"1512355","status":"SUCCESS","status_code":"SENT_TO_BENEFICIARY",
  "status_description":"Transfer sent to the beneficiary bank",
  "beneficiary_details":{"beneficiary_id":"JOHN18011","beneficiary_instrument_details":{"bank_account_number":"XXXXXXXX3456","ifsc":"SBIN0001161"}},
  "transfer_amount":1234567890123.45,"transfer_service_charge":2.5,"transfer_service_tax":0.45,
  "transfer_mode":"BANK","transfer_utr":"N2023112344545","fundsource_id":"CASHFREE_1",
  "added_on":"2026-11-24T08:09:15Z","updated_on":"2026-11-24T08:09:20Z"}}`;

describe("reading a v2 webhook in the provider's shape", () => {
  it("a transfer event: the v2 transfer object in the service's terms, the amount as its exact literal", () => {
    assert.deepEqual(hintOf(v2(TRANSFER_SUCCESS)), {
      event: 'TRANSFER_SUCCESS',
      transferId: 'JUNOB2018',
      svcTransferId: '1512355',
      status: 'SUCCESS',
      statusCode: 'SENT_TO_BENEFICIARY',
      reason: 'Transfer sent to the beneficiary bank',
      utr: 'N2023112344545',
      amount: '1234567890123.45',
      // The transfer's fee (issue 32), exact text with at least 2 decimals.
      feeCharge: '2.50',
      feeTax: '0.45',
      eventTime: '2026-11-24T13:39:20',
    });
  });

  it('BULK_TRANSFER_REJECTED: the batch ids', () => {
    const body = JSON.stringify({
      type: 'BULK_TRANSFER_REJECTED',
      event_time: '2026-11-24T13:39:20',
      data: { batch_transfer_id: 'b_1', cf_batch_transfer_id: 987654, status: 'REJECTED' },
    });
    assert.deepEqual(hintOf(v2(body)), {
      event: 'BULK_TRANSFER_REJECTED',
      batchTransferId: 'b_1',
      svcBatchTransferId: '987654',
      status: 'REJECTED',
      eventTime: '2026-11-24T13:39:20',
    });
  });

  it('the v1 names in a v2 body are not read: such a body names no transfer', () => {
    const body = JSON.stringify({
      type: 'TRANSFER_SUCCESS',
      event_time: '2026-11-24T13:39:20',
      data: { transferId: 't1', referenceId: '42', utr: 'U1', amount: '10.00' },
    });
    assert.deepEqual(hintOf(v2(body)), { event: 'TRANSFER_SUCCESS', eventTime: '2026-11-24T13:39:20' });
  });

  it('an account number in the free text is masked', () => {
    const body = JSON.stringify({
      type: 'TRANSFER_FAILED',
      data: {
        transfer_id: 't1',
        status: 'FAILED',
        status_code: 'X',
        status_description: 'bad 026291800001191',
      },
    });
    assert.equal(hintOf(v2(body)).reason, 'bad XXXXXXXXXXX1191');
  });

  it('refusals: a changed body, another key, outside the replay window, no event type', () => {
    const signed = (body: string, sigBody: string) =>
      readers.v2.read(
        {
          version: 'v2',
          headers: { 'x-webhook-timestamp': String(NOW), 'x-webhook-signature': mac(String(NOW) + sigBody) },
          rawBody: Buffer.from(body),
        },
        SECRET,
        NOW,
      );
    assert.deepEqual(signed(TRANSFER_SUCCESS.replace('1512355', '1512356'), TRANSFER_SUCCESS), {
      refusal: 'bad_signature',
    });
    assert.deepEqual(v2(TRANSFER_SUCCESS, String(NOW), 'other'), { refusal: 'bad_signature' });
    assert.deepEqual(v2(TRANSFER_SUCCESS, String(NOW - 301_000)), { refusal: 'stale' });
    assert.ok('hint' in v2(TRANSFER_SUCCESS, String(Math.floor(NOW / 1000) - 200)), 'seconds, in the window');
    assert.deepEqual(v2(TRANSFER_SUCCESS, String(Math.floor(NOW / 1000) - 400)), { refusal: 'stale' });
    assert.deepEqual(v2('{"data":{}}'), { refusal: 'malformed' });
    assert.deepEqual(v2('not json'), { refusal: 'malformed' });
  });
});

describe('reading a v1 webhook', () => {
  const base = {
    event: 'TRANSFER_FAILED',
    transferId: 't1',
    referenceId: '42',
    utr: '',
    acknowledged: '0',
    eventTime: '2026-11-24 13:39:20',
    reason: 'to 026291800001191',
  };

  it("the documented fields, in the service's terms; zone-less times are India time", () => {
    assert.deepEqual(hintOf(v1(base)), {
      event: 'TRANSFER_FAILED',
      transferId: 't1',
      referenceId: '42',
      acknowledged: '0',
      reason: 'to XXXXXXXXXXX1191',
      eventTime: '2026-11-24 13:39:20',
    });
  });

  it('refusals: another key, a name the provider does not send, an event time out of bounds', () => {
    assert.deepEqual(v1(base, 'other'), { refusal: 'bad_signature' });
    assert.deepEqual(v1({ ...base, refId: '' }), { refusal: 'unexpected_field' });
    assert.deepEqual(v1({ ...base, eventTime: '2026-11-24 11:39:20' }), { refusal: 'untimely' });
    assert.deepEqual(v1({ ...base, event: '' }), { refusal: 'malformed' });
  });
});

describe('parseJsonKeepingNumbers', () => {
  it('every number is its literal text; other values as JSON.parse reads them', () => {
    assert.deepEqual(parseJsonKeepingNumbers('{"a":0.1,"b":[1e3,-2],"c":"0.1","d":true,"e":null}'), {
      a: '0.1',
      b: ['1e3', '-2'],
      c: '0.1',
      d: true,
      e: null,
    });
    assert.equal(parseJsonKeepingNumbers('{'), undefined);
  });

  it('an amount a float would round to a valid one stays what was sent (and compares unequal)', () => {
    // 10.0000000000000001 is the double 10: read through a float it would match a 10.00 payout.
    const body = TRANSFER_SUCCESS.replace('1234567890123.45', '10.0000000000000001');
    assert.equal(hintOf(v2(body)).amount, '10.0000000000000001');
  });
});

/*
 * TRANSFER_APPROVED (the provider's agent-skills payouts template; not in its OAS): approved in
 * the provider's dashboard, not settled. The pipeline gets it in the service's words (a sub-state
 * hint, no status), never the provider's event name (issue 29).
 */
describe('TRANSFER_APPROVED becomes a sub-state hint', () => {
  it('v2: event PROVIDER_SUB_STATE, sub-state approved, no status', () => {
    const body = JSON.stringify({
      type: 'TRANSFER_APPROVED',
      event_time: '2026-11-24T13:39:20',
      data: {
        transfer_id: 'tr_9',
        cf_transfer_id: 4242,
        status: 'APPROVAL_PENDING',
        status_code: 'APPROVED',
        status_description: 'approved by a team member',
        transfer_amount: 10.5,
      },
    });
    const h = hintOf(v2(body));
    assert.notEqual(h.event, 'TRANSFER_APPROVED');
    assert.deepEqual(h, {
      event: 'PROVIDER_SUB_STATE',
      subState: 'approved',
      transferId: 'tr_9',
      svcTransferId: '4242',
      amount: '10.5',
      eventTime: '2026-11-24T13:39:20',
    });
  });
  it('v1: the same', () => {
    const h = hintOf(
      v1({
        event: 'TRANSFER_APPROVED',
        transferId: 'tr_9',
        referenceId: '777',
        utr: '',
        acknowledged: '0',
        eventTime: '2026-11-24 13:39:20',
        reason: '',
      }),
    );
    assert.deepEqual(h, {
      event: 'PROVIDER_SUB_STATE',
      subState: 'approved',
      transferId: 'tr_9',
      referenceId: '777',
      eventTime: '2026-11-24 13:39:20',
    });
  });
  it('a state event keeps its own name and carries no sub-state', () => {
    const h = hintOf(v2(TRANSFER_SUCCESS));
    assert.equal(h.event, 'TRANSFER_SUCCESS');
    assert.equal(h.subState, undefined);
  });
});
