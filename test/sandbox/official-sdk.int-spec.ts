import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BeneficiaryBeneficiaryStatusEnum,
  Cashfree,
  type Beneficiary,
  type CreateBatchTransferResponse,
  type CreateTransferRequest,
  type CreateTransferResponse,
  type FetchBatchTransferResponse,
} from 'cashfree-payout';
import { CARD_TOKENS } from '#sandbox';
import { Harness, SUCCESS_ACCOUNT } from './harness.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * The provider's official v2 Node SDK (`cashfree-payout` 0.0.14, generated from the provider's
 * OpenAPI document 2024-01-01) against the sandbox over HTTP, unchanged but for its base path and
 * with its error analytics off (it would send errors to the vendor). Every SDK operation; answers
 * are checked against the OpenAPI document's shapes (the SDK's types come from it): required
 * fields, types, dates, enums. Errors arrive as the SDK throws them: an axios error whose
 * response body is the provider's `ErrorV2`.
 */

const VERSION = '2024-01-01';
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** provider-v2.md, "Transfer statuses". */
const TRANSFER_STATUSES = [
  'RECEIVED',
  'QUEUED',
  'APPROVAL_PENDING',
  'PENDING',
  'SUCCESS',
  'FAILED',
  'REJECTED',
  'REVERSED',
  'MANUALLY_REJECTED',
];
const BENEFICIARY_STATUSES: readonly string[] = Object.values(BeneficiaryBeneficiaryStatusEnum).filter(
  (s) => s !== BeneficiaryBeneficiaryStatusEnum.UNKNOWN_DEFAULT_OPEN_API,
);

interface SdkError {
  readonly response?: { readonly status: number; readonly data: unknown };
}

/** The SDK's thrown error, as a status and the provider's error object. */
async function sdkError(call: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await call;
  } catch (err) {
    const res = (err as SdkError).response;
    assert.ok(res, `an HTTP error answer, got ${String(err)}`);
    const body = res.data as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(body).sort(),
      ['code', 'message', 'type'],
      'ErrorV2 has type, code, message',
    );
    for (const k of ['type', 'code', 'message']) assert.equal(typeof body[k], 'string', `ErrorV2.${k}`);
    return { status: res.status, body };
  }
  throw new assert.AssertionError({ message: 'the SDK call was expected to throw' });
}

function isOptionalNumber(v: unknown): boolean {
  return v === undefined || (typeof v === 'number' && Number.isFinite(v));
}

/** `CreateTransferResponse` as the OpenAPI document defines it. */
function checkTransfer(t: CreateTransferResponse | undefined, transferId: string): CreateTransferResponse {
  assert.ok(t, 'a transfer object');
  const where = JSON.stringify(t);
  assert.equal(t.transfer_id, transferId, where);
  assert.equal(typeof t.cf_transfer_id, 'string', `cf_transfer_id is a string: ${where}`);
  assert.ok(TRANSFER_STATUSES.includes(String(t.status)), `status in the enum: ${where}`);
  const o = t as Record<string, unknown>;
  assert.equal(typeof o.status_code, 'string', `status_code: ${where}`);
  assert.equal(typeof o.status_description, 'string', `status_description: ${where}`);
  assert.equal(typeof t.transfer_amount, 'number', `transfer_amount is a JSON number: ${where}`);
  assert.ok(isOptionalNumber(t.transfer_service_charge), where);
  assert.ok(isOptionalNumber(t.transfer_service_tax), where);
  assert.equal(typeof t.transfer_mode, 'string', where);
  assert.ok(t.transfer_utr === undefined || typeof t.transfer_utr === 'string', where);
  assert.match(String(t.added_on), ISO_Z, `added_on: ${where}`);
  assert.match(String(t.updated_on), ISO_Z, `updated_on: ${where}`);
  assert.equal(typeof t.beneficiary_details, 'object', where);
  const instrument = t.beneficiary_details?.beneficiary_instrument_details ?? {};
  for (const v of Object.values(instrument)) assert.equal(typeof v, 'string', where);
  return t;
}

/** `Beneficiary` as the OpenAPI document defines it. */
function checkBeneficiary(b: Beneficiary, beneficiaryId: string, status: string): void {
  const where = JSON.stringify(b);
  assert.equal(b.beneficiary_id, beneficiaryId, where);
  assert.equal(typeof b.beneficiary_name, 'string', where);
  assert.ok(BENEFICIARY_STATUSES.includes(String(b.beneficiary_status)), `beneficiary_status enum: ${where}`);
  assert.equal(b.beneficiary_status, status, where);
  assert.match(String(b.added_on), ISO_Z, `added_on: ${where}`);
  for (const part of [b.beneficiary_instrument_details, b.beneficiary_contact_details]) {
    assert.equal(typeof part, 'object', where);
    for (const v of Object.values(part ?? {})) assert.equal(typeof v, 'string', where);
  }
}

function transferTo(
  transferId: string,
  details: CreateTransferRequest['beneficiary_details'],
  mode: CreateTransferRequest['transfer_mode'] = 'banktransfer',
  amount = 10.5,
): CreateTransferRequest {
  return {
    transfer_id: transferId,
    transfer_amount: amount,
    transfer_mode: mode,
    beneficiary_details: details,
  };
}

const bank = (
  bank_account_number: string,
  bank_ifsc: string,
): CreateTransferRequest['beneficiary_details'] => ({
  beneficiary_name: 'Test Payee',
  beneficiary_instrument_details: { bank_account_number, bank_ifsc },
});

describe('the official v2 SDK against the sandbox', () => {
  let h: Harness;
  let rx: WebhookReceiver;
  const ackMs = 5_000;
  const pendingMs = 60_000;

  before(async () => {
    rx = await WebhookReceiver.start();
    h = await Harness.start({ pendingDelayMs: pendingMs, acknowledgeDelayMs: ackMs, batchDelayMs: 5_000 });
    Cashfree.XEnableErrorAnalytics = false;
    Cashfree.XClientId = h.sb.clientId;
    Cashfree.XClientSecret = h.sb.clientSecret;
    Cashfree.XEnvironment = Cashfree.Environment.SANDBOX;
    Cashfree.basePath = `${h.sb.url}/payout`;
  });
  after(async () => {
    await h.close();
    await rx.close();
  });
  beforeEach(async () => {
    await h.fresh();
    rx.clear();
  });

  it('PayoutInitiateTransfer to inline bank details: 200, the Transfer object, rate-limit and request-id headers', async () => {
    const id = h.id('SDK');
    const res = await Cashfree.PayoutInitiateTransfer(
      VERSION,
      'req-42',
      transferTo(id, bank(SUCCESS_ACCOUNT.bankAccount, SUCCESS_ACCOUNT.ifsc)),
    );
    assert.equal(res.status, 200);
    const t = checkTransfer(res.data, id);
    assert.equal(t.transfer_amount, 10.5);
    assert.equal(t.status, 'SUCCESS');
    assert.equal((t as Record<string, unknown>).status_code, 'SENT_TO_BENEFICIARY');
    assert.equal(
      t.beneficiary_details?.beneficiary_instrument_details?.bank_account_number,
      '026291800001191',
    );
    assert.equal(t.beneficiary_details?.beneficiary_instrument_details?.ifsc, SUCCESS_ACCOUNT.ifsc);
    for (const k of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-retry'])
      assert.match(String(res.headers[k]), /^\d+$/, k);
    assert.equal(res.headers['x-ratelimit-retry'], '0');
    assert.equal(res.headers['x-request-id'], 'req-42');
  });

  it('PayoutFetchTransfer by transfer_id and by cf_transfer_id: SUCCESS SENT_TO_BENEFICIARY, then COMPLETED', async () => {
    const id = h.id('SDK');
    const sent = await Cashfree.PayoutInitiateTransfer(
      VERSION,
      undefined,
      transferTo(id, bank(SUCCESS_ACCOUNT.bankAccount, SUCCESS_ACCOUNT.ifsc)),
    );
    const cfId = String(sent.data.cf_transfer_id);
    await h.advance(ackMs);
    const byId = await Cashfree.PayoutFetchTransfer(VERSION, undefined, undefined, id);
    const byCf = await Cashfree.PayoutFetchTransfer(VERSION, undefined, cfId);
    for (const res of [byId, byCf]) {
      const t = checkTransfer(res.data, id);
      assert.equal(t.cf_transfer_id, cfId);
      assert.equal(t.status, 'SUCCESS');
      assert.equal((t as Record<string, unknown>).status_code, 'COMPLETED');
      assert.equal(typeof t.transfer_utr, 'string');
    }
    assert.deepEqual(byId.data, byCf.data);
  });

  // provider-facts.md "Sandbox behaviour": the same accounts as v1, with the v2 statuses and codes.
  const OUTCOMES: readonly {
    readonly name: string;
    readonly mode: CreateTransferRequest['transfer_mode'];
    readonly details: CreateTransferRequest['beneficiary_details'];
    readonly first: readonly [string, string];
    readonly last: readonly [string, string];
  }[] = [
    {
      name: 'invalid account',
      mode: 'imps',
      details: bank('026291800001190', 'YESB0000262'),
      first: ['FAILED', 'INVALID_BENE_ACCOUNT_OR_IFSC'],
      last: ['FAILED', 'INVALID_BENE_ACCOUNT_OR_IFSC'],
    },
    {
      name: 'invalid IFSC',
      mode: 'neft',
      details: bank('2640101002729', 'CNRR0002640'),
      first: ['FAILED', 'INVALID_BENE_ACCOUNT_OR_IFSC'],
      last: ['FAILED', 'INVALID_BENE_ACCOUNT_OR_IFSC'],
    },
    {
      name: 'pending',
      mode: 'banktransfer',
      details: bank('007711000031', 'HDFC0000077'),
      first: ['PENDING', 'PENDING'],
      last: ['PENDING', 'PENDING'],
    },
    {
      name: 'pending, then success',
      mode: 'banktransfer',
      details: bank('00224412311300', 'YESB0000001'),
      first: ['PENDING', 'SENT_TO_BANK'],
      last: ['SUCCESS', 'COMPLETED'],
    },
    {
      name: 'pending, then failure',
      mode: 'rtgs',
      details: bank('7766666351000', 'YESB0000001'),
      first: ['PENDING', 'SENT_TO_BANK'],
      last: ['FAILED', 'BENE_BANK_DECLINED'],
    },
    {
      name: 'success, then reversed',
      mode: 'banktransfer',
      details: bank('02014457596969', 'CITI0000001'),
      first: ['SUCCESS', 'SENT_TO_BENEFICIARY'],
      last: ['REVERSED', 'INVALID_ACCOUNT_FAIL'],
    },
    {
      name: 'UPI success@upi',
      mode: 'upi',
      details: { beneficiary_name: 'Test Payee', beneficiary_instrument_details: { vpa: 'success@upi' } },
      first: ['SUCCESS', 'SENT_TO_BENEFICIARY'],
      last: ['SUCCESS', 'COMPLETED'],
    },
    {
      name: 'UPI failure@upi',
      mode: 'upi',
      details: { beneficiary_name: 'Test Payee', beneficiary_instrument_details: { vpa: 'failure@upi' } },
      first: ['FAILED', 'INVALID_BENE_VPA'],
      last: ['FAILED', 'INVALID_BENE_VPA'],
    },
    {
      name: 'card token',
      mode: 'card',
      details: {
        beneficiary_name: 'Test Payee',
        beneficiary_instrument_details: {
          card_details: { card_token: CARD_TOKENS.success[0], card_network_type: 'VISA', card_type: 'DEBIT' },
        },
      },
      first: ['SUCCESS', 'SENT_TO_BENEFICIARY'],
      last: ['SUCCESS', 'COMPLETED'],
    },
  ];

  it('the test accounts drive outcomes: first answer, and the status once the bank has answered', async () => {
    const sent: { id: string; o: (typeof OUTCOMES)[number] }[] = [];
    for (const o of OUTCOMES) {
      const id = h.id('OUT');
      const res = await Cashfree.PayoutInitiateTransfer(
        VERSION,
        undefined,
        transferTo(id, o.details, o.mode),
      );
      const t = checkTransfer(res.data, id);
      assert.deepEqual([t.status, (t as Record<string, unknown>).status_code], o.first, o.name);
      sent.push({ id, o });
    }
    await h.advance(pendingMs + 2 * ackMs);
    for (const { id, o } of sent) {
      const t = checkTransfer(
        (await Cashfree.PayoutFetchTransfer(VERSION, undefined, undefined, id)).data,
        id,
      );
      assert.deepEqual([t.status, (t as Record<string, unknown>).status_code], o.last, o.name);
    }
  });

  it('PayoutInitiateBatchTransfer, then PayoutFetchBatchTransfer by both ids: entries are Transfer objects', async () => {
    const benId = h.id('BEN');
    await Cashfree.PayoutCreateBeneficiary(VERSION, undefined, {
      beneficiary_id: benId,
      beneficiary_name: 'Batch Payee',
      beneficiary_instrument_details: {
        bank_account_number: SUCCESS_ACCOUNT.bankAccount,
        bank_ifsc: SUCCESS_ACCOUNT.ifsc,
      },
    });
    const batchId = h.id('BATCH');
    const [a, b, c] = [h.id('E'), h.id('E'), h.id('E')];
    const res = await Cashfree.PayoutInitiateBatchTransfer(VERSION, undefined, {
      batch_transfer_id: batchId,
      transfers: [
        { transfer_id: a, transfer_amount: 1, beneficiary_details: { beneficiary_id: benId } },
        {
          transfer_id: b,
          transfer_amount: 2.25,
          transfer_mode: 'upi',
          beneficiary_details: {
            beneficiary_name: 'U Payee',
            beneficiary_instrument_details: { vpa: 'failure@upi' },
          },
        },
        { transfer_id: c, transfer_amount: 3, beneficiary_details: { beneficiary_id: 'NOBODY' } },
      ],
    });
    assert.equal(res.status, 200);
    const accepted: CreateBatchTransferResponse = res.data;
    assert.equal(accepted.batch_transfer_id, batchId);
    assert.equal(typeof accepted.cf_batch_transfer_id, 'string');
    assert.equal(accepted.status, 'RECEIVED');
    await h.advance(5_000);
    // Processed once the batch delay has passed: the entries' transfers start now.
    const processing = await Cashfree.PayoutFetchBatchTransfer(VERSION, undefined, undefined, batchId);
    assert.equal(processing.data.status, 'PENDING');
    await h.advance(ackMs);
    const byId = await Cashfree.PayoutFetchBatchTransfer(VERSION, undefined, undefined, batchId);
    const byCf = await Cashfree.PayoutFetchBatchTransfer(VERSION, undefined, accepted.cf_batch_transfer_id);
    assert.deepEqual(byId.data, byCf.data);
    const batch: FetchBatchTransferResponse = byId.data;
    assert.equal(batch.batch_transfer_id, batchId);
    assert.equal(batch.cf_batch_transfer_id, accepted.cf_batch_transfer_id);
    assert.equal(batch.status, 'COMPLETED');
    const [ta, tb, tc] = batch.transfers ?? [];
    assert.equal(batch.transfers?.length, 3);
    assert.deepEqual(
      [checkTransfer(ta, a).status, (ta as Record<string, unknown>).status_code],
      ['SUCCESS', 'COMPLETED'],
    );
    assert.equal(ta?.transfer_amount, 1);
    assert.equal(ta?.beneficiary_details?.beneficiary_id, benId);
    assert.deepEqual(
      [checkTransfer(tb, b).status, (tb as Record<string, unknown>).status_code],
      ['FAILED', 'INVALID_BENE_VPA'],
    );
    assert.equal(tb?.transfer_amount, 2.25);
    // A refused entry is listed too: REJECTED, the refusal's code as its status code.
    assert.equal(tc?.transfer_id, c);
    assert.equal(tc?.status, 'REJECTED');
    assert.equal((tc as Record<string, unknown>).status_code, 'BENEFICIARY_NOT_FOUND');
    assert.equal(tc?.transfer_amount, 3);
  });

  it('PayoutCreateBeneficiary (201), PayoutFetchBeneficiary by id and by account + IFSC, PayoutDeleteBeneficiary', async () => {
    const benId = h.id('BEN');
    const created = await Cashfree.PayoutCreateBeneficiary(VERSION, undefined, {
      beneficiary_id: benId,
      beneficiary_name: 'New Payee',
      beneficiary_instrument_details: {
        bank_account_number: '00224412311300',
        bank_ifsc: 'YESB0000001',
        vpa: 'success@upi',
      },
      beneficiary_contact_details: {
        beneficiary_phone: '+919876543210',
        beneficiary_email: 'n@example.com',
        beneficiary_postal_code: '560001',
      },
    });
    assert.equal(created.status, 201);
    checkBeneficiary(created.data, benId, 'VERIFIED');
    assert.equal(created.data.beneficiary_contact_details?.beneficiary_phone, '9876543210');
    const byId = await Cashfree.PayoutFetchBeneficiary(VERSION, undefined, benId);
    const byAccount = await Cashfree.PayoutFetchBeneficiary(
      VERSION,
      undefined,
      undefined,
      '00224412311300',
      'YESB0000001',
    );
    assert.deepEqual(byId.data, created.data);
    assert.deepEqual(byAccount.data, created.data);
    const deleted = await Cashfree.PayoutDeleteBeneficiary(VERSION, undefined, benId);
    assert.equal(deleted.status, 200);
    checkBeneficiary(deleted.data, benId, 'DELETED');
    const gone = await sdkError(Cashfree.PayoutFetchBeneficiary(VERSION, undefined, benId));
    assert.deepEqual([gone.status, gone.body.code], [404, 'beneficiary_not_found']);
  });

  it('one beneficiary store: added on v1, found and paid on v2; added on v2, found on v1', async () => {
    const v1Id = await h.addBene(
      { bankAccount: SUCCESS_ACCOUNT.bankAccount, ifsc: SUCCESS_ACCOUNT.ifsc },
      false,
    );
    const found = await Cashfree.PayoutFetchBeneficiary(VERSION, undefined, v1Id);
    checkBeneficiary(found.data, v1Id, 'VERIFIED');
    assert.equal(found.data.beneficiary_instrument_details?.bank_account_number, SUCCESS_ACCOUNT.bankAccount);
    const paid = await Cashfree.PayoutInitiateTransfer(VERSION, undefined, {
      transfer_id: h.id('V1B'),
      transfer_amount: 5,
      beneficiary_details: { beneficiary_id: v1Id },
    });
    assert.equal(paid.data.status, 'SUCCESS');
    const v2Id = h.id('BEN');
    await Cashfree.PayoutCreateBeneficiary(VERSION, undefined, {
      beneficiary_id: v2Id,
      beneficiary_name: 'Two Payee',
      beneficiary_instrument_details: { vpa: 'success@upi' },
    });
    const onV1 = await h.get(`/payout/v1/getBeneficiary/${v2Id}`);
    assert.equal(onV1.body.status, 'SUCCESS', JSON.stringify(onV1.body));
    assert.equal((onV1.body.data as Record<string, unknown>).vpa, 'success@upi');
  });

  it('errors through the SDK: the thrown error carries the provider error object', async () => {
    const okBody = (id: string): CreateTransferRequest =>
      transferTo(id, bank(SUCCESS_ACCOUNT.bankAccount, SUCCESS_ACCOUNT.ifsc));
    const cases: { call: () => Promise<unknown>; status: number; code: string }[] = [
      {
        call: () =>
          Cashfree.PayoutInitiateTransfer(VERSION, undefined, {
            ...okBody(h.id('E')),
            transfer_amount: 0.99,
          }),
        status: 400,
        code: 'transfer_amount_invalid',
      },
      {
        call: () =>
          Cashfree.PayoutInitiateTransfer(VERSION, undefined, {
            ...okBody(h.id('E')),
            transfer_amount: 10.001,
          }),
        status: 400,
        code: 'transfer_amount_invalid',
      },
      {
        call: () =>
          Cashfree.PayoutInitiateTransfer(
            VERSION,
            undefined,
            transferTo(h.id('E'), bank('026291800001191', 'YESB000026')),
          ),
        status: 400,
        code: 'beneficiary_details.beneficiary_instrument_details.bank_ifsc_invalid',
      },
      {
        call: () =>
          Cashfree.PayoutInitiateTransfer(
            VERSION,
            undefined,
            transferTo(h.id('E'), { beneficiary_id: 'NOBODY' }),
          ),
        status: 404,
        code: 'beneficiary_not_found',
      },
      {
        call: () => Cashfree.PayoutFetchTransfer(VERSION, undefined, undefined, 'NOPE'),
        status: 404,
        code: 'transfer_id_not_found',
      },
      {
        call: () => Cashfree.PayoutFetchTransfer(VERSION, undefined, '999999999'),
        status: 404,
        code: 'cf_transfer_id_not_found',
      },
      {
        call: () => Cashfree.PayoutFetchBatchTransfer(VERSION, undefined, undefined, 'NOPE'),
        status: 404,
        code: 'batch_transfer_id_not_found',
      },
      {
        call: () => Cashfree.PayoutFetchBatchTransfer(VERSION, undefined, '999999999'),
        status: 404,
        code: 'cf_batch_transfer_id',
      },
      {
        call: () =>
          Cashfree.PayoutInitiateBatchTransfer(VERSION, undefined, {
            batch_transfer_id: h.id('B'),
            transfers: [okBody(h.id('E')), { ...okBody(h.id('E')), transfer_amount: 0 }],
          }),
        status: 400,
        code: 'transfers[1].transfer_amount_invalid',
      },
      {
        call: () =>
          Cashfree.PayoutFetchBeneficiary(VERSION, undefined, 'B1', '026291800001191', 'YESB0000262'),
        status: 400,
        code: 'too_many_parameters_in_request',
      },
      {
        call: () => Cashfree.PayoutFetchBeneficiary(VERSION, undefined, undefined, '026291800001191'),
        status: 400,
        code: 'bank_ifsc_missing',
      },
      {
        call: () => Cashfree.PayoutDeleteBeneficiary(VERSION, undefined, 'NOBODY'),
        status: 404,
        code: 'beneficiary_not_found',
      },
    ];
    for (const c of cases) {
      const e = await sdkError(c.call());
      assert.deepEqual([e.status, e.body.code], [c.status, c.code], JSON.stringify(e.body));
      assert.equal(e.body.type, 'invalid_request_error');
    }
  });

  it('repeats through the SDK: 409 *_already_exists for a transfer, a batch and a beneficiary', async () => {
    const t = transferTo(h.id('R'), bank(SUCCESS_ACCOUNT.bankAccount, SUCCESS_ACCOUNT.ifsc));
    await Cashfree.PayoutInitiateTransfer(VERSION, undefined, t);
    const again = await sdkError(Cashfree.PayoutInitiateTransfer(VERSION, undefined, t));
    assert.deepEqual([again.status, again.body.code], [409, 'transfer_id_already_exists']);
    const b = { batch_transfer_id: h.id('RB'), transfers: [{ ...t, transfer_id: h.id('R') }] };
    await Cashfree.PayoutInitiateBatchTransfer(VERSION, undefined, b);
    const batchAgain = await sdkError(Cashfree.PayoutInitiateBatchTransfer(VERSION, undefined, b));
    assert.deepEqual([batchAgain.status, batchAgain.body.code], [409, 'batch_transfer_id_already_exists']);
    const bene = {
      beneficiary_id: h.id('RBEN'),
      beneficiary_name: 'Rep Payee',
      beneficiary_instrument_details: { vpa: 'success@upi' },
    };
    await Cashfree.PayoutCreateBeneficiary(VERSION, undefined, bene);
    const beneAgain = await sdkError(Cashfree.PayoutCreateBeneficiary(VERSION, undefined, bene));
    assert.deepEqual([beneAgain.status, beneAgain.body.code], [409, 'beneficiary_id_already_exists']);
  });

  it('403 apis_not_enabled through the SDK', async () => {
    await h.flags({ apisDisabled: ['transferV2', 'createBeneficiaryV2'] });
    const t = await sdkError(
      Cashfree.PayoutInitiateTransfer(
        VERSION,
        undefined,
        transferTo(h.id('X'), bank(SUCCESS_ACCOUNT.bankAccount, SUCCESS_ACCOUNT.ifsc)),
      ),
    );
    assert.deepEqual([t.status, t.body.code], [403, 'apis_not_enabled']);
    const b = await sdkError(
      Cashfree.PayoutCreateBeneficiary(VERSION, undefined, {
        beneficiary_id: h.id('X'),
        beneficiary_name: 'No Payee',
      }),
    );
    assert.deepEqual([b.status, b.body.code], [403, 'apis_not_enabled']);
  });

  it('PayoutVerifyWebhookSignature accepts the v2 webhooks the sandbox sends, and refuses a changed body', async () => {
    await h.ctl('POST', '/__sandbox/webhooks', { url: rx.url, version: 'v2' });
    const id = h.id('WH');
    await Cashfree.PayoutInitiateTransfer(
      VERSION,
      undefined,
      transferTo(id, bank(SUCCESS_ACCOUNT.bankAccount, SUCCESS_ACCOUNT.ifsc)),
    );
    await rx.until((all) => all.some((r) => r.event === 'TRANSFER_SUCCESS'));
    const hook = rx.received.find((r) => r.event === 'TRANSFER_SUCCESS');
    assert.ok(hook);
    const signature = String(hook.headers['x-webhook-signature']);
    const timestamp = String(hook.headers['x-webhook-timestamp']);
    const event = Cashfree.PayoutVerifyWebhookSignature(signature, hook.raw, timestamp);
    assert.equal(event.type, 'TRANSFER_SUCCESS');
    assert.equal(event.raw, hook.raw);
    assert.throws(() => Cashfree.PayoutVerifyWebhookSignature(signature, `${hook.raw} `, timestamp));
  });

  it('the transfer-token payout still answers on the same POST /payout/transfers', async () => {
    const id = h.id('TT');
    const token = await h.transferToken(id);
    const res = await h.v2('POST', '/payout/transfers', {
      transfer_id: id,
      transfer_token: token,
      transfer_amount: '1.00',
      transfer_mode: 'upi',
    });
    assert.equal(res.http, 200, JSON.stringify(res.body));
    const t = (await Cashfree.PayoutFetchTransfer(VERSION, undefined, undefined, id)).data;
    checkTransfer(t, id);
    assert.equal(t.status, 'SUCCESS');
  });
});
