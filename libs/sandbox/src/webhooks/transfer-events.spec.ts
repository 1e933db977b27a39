import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Step, type TransferRecord } from '../core/state.js';
import { transferEvents } from './transfer-events.js';

function record(steps: Step[]): TransferRecord {
  return {
    transferId: 'T1',
    referenceId: '100001',
    svcTransferId: '100001',
    endpoint: 'directTransfer',
    amount: 1050n,
    mode: 'banktransfer',
    beneId: '',
    bankAccount: '026291800001191',
    ifsc: 'YESB0000262',
    vpa: '',
    phone: '9876543210',
    remarks: '',
    paymentInstrumentId: '',
    addedOn: 0,
    steps,
    utr: 'SBX1',
    refunded: false,
    debited: true,
  };
}

const codes = (t: TransferRecord, step: Step) =>
  transferEvents(t, step).map((e) => `${e.type}:${e.status}/${e.statusCode ?? ''}`);

// provider-v2.md, "Webhooks V2": TRANSFER_SUCCESS is SUCCESS / SENT_TO_BENEFICIARY (debited),
// TRANSFER_ACKNOWLEDGED is SUCCESS / COMPLETED (credited); each sent once per transfer.
describe('transfer events per step', () => {
  it('a success in one step sends both halves', () => {
    const done: Step = { at: 1, status: 'SUCCESS', statusCode: 'COMPLETED', reason: '' };
    assert.deepEqual(codes(record([done]), done), [
      'TRANSFER_SUCCESS:SUCCESS/SENT_TO_BENEFICIARY',
      'TRANSFER_ACKNOWLEDGED:SUCCESS/COMPLETED',
    ]);
  });

  it('a success in two steps (SENT_TO_BENEFICIARY, then COMPLETED) sends each half at its own step', () => {
    const sent: Step = { at: 1, status: 'SUCCESS', statusCode: 'SENT_TO_BENEFICIARY', reason: '' };
    const done: Step = { at: 1, status: 'SUCCESS', statusCode: 'COMPLETED', reason: '' };
    const t = record([sent, done]);
    assert.deepEqual(codes(t, sent), ['TRANSFER_SUCCESS:SUCCESS/SENT_TO_BENEFICIARY']);
    assert.deepEqual(codes(t, done), ['TRANSFER_ACKNOWLEDGED:SUCCESS/COMPLETED']);
  });

  it('failure and reversal carry their status codes; pending sends nothing', () => {
    const failed: Step = { at: 2, status: 'FAILED', statusCode: 'BENE_BANK_DECLINED', reason: 'X' };
    const pending: Step = { at: 1, status: 'PENDING', statusCode: 'PENDING', reason: '' };
    const t = record([pending, failed]);
    assert.deepEqual(codes(t, pending), []);
    assert.deepEqual(codes(t, failed), ['TRANSFER_FAILED:FAILED/BENE_BANK_DECLINED']);
  });
});
