import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hasStatusCheck, PAYOUT_KIND_NAMES as KINDS, PAYOUT_KINDS } from '../shared/payout-kinds.js';
import { onExpiredSubmission, onNotFound } from './in-doubt.js';

describe('in-doubt decisions', () => {
  it('asks for the status of an expired attempt that may have reached the provider, before any re-send', () => {
    for (const kind of KINDS.filter(hasStatusCheck)) {
      assert.deepEqual(onExpiredSubmission(kind, null), { do: 'ask-status' }, kind);
      assert.deepEqual(
        onExpiredSubmission(kind, { endpoint: 'x', processed: true }),
        { do: 'ask-status' },
        kind,
      );
    }
  });

  it('re-sends at once only an attempt the provider said it did not process', () => {
    for (const kind of KINDS) {
      assert.deepEqual(onExpiredSubmission(kind, { processed: false }), { do: 'resend' }, kind);
    }
  });

  it('hands an in-doubt self withdrawal (no status endpoint, no dedupe) to a person', () => {
    assert.deepEqual(onExpiredSubmission('self_withdrawal', null), {
      do: 'attention',
      reason: 'in_doubt_resend_unsafe',
    });
  });

  it('re-sends after "not found" only the kinds the provider deduplicates', () => {
    for (const kind of KINDS) {
      assert.equal(onNotFound(kind).do, PAYOUT_KINDS[kind].resendIsSafe ? 'resend' : 'attention', kind);
    }
    assert.deepEqual(onNotFound('internal_transfer'), { do: 'attention', reason: 'in_doubt_resend_unsafe' });
  });
});
