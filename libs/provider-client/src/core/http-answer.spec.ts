import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { saysAlreadyExists } from './http-answer.js';

describe('saysAlreadyExists', () => {
  it('reads every wording of "the provider holds this id" as a duplicate (look it up, never FAILED)', () => {
    for (const m of [
      'Transfer Id already exists.',
      'Batch transfer Id already exists',
      'transfer_id_already_exists',
      'Duplicate transferId',
      'Duplicate transfer id.',
      'DUPLICATE_TRANSFER_ID',
      'duplicate request',
      'transferId is a duplicate',
      'Request duplicated',
    ]) {
      assert.equal(saysAlreadyExists(m), true, m);
    }
  });

  it('does not read a refusal as a duplicate', () => {
    for (const m of [
      undefined,
      '',
      'Insufficient balance',
      'Beneficiary does not exist',
      'Invalid transferId',
    ]) {
      assert.equal(saysAlreadyExists(m), false, String(m));
    }
  });
});
