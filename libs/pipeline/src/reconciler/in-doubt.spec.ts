import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RESEND_IS_SAFE } from '#ledger';
import { HAS_STATUS_ENDPOINT, onExpiredSubmission, onNotFound } from './in-doubt.js';

const KINDS = Object.keys(HAS_STATUS_ENDPOINT) as (keyof typeof HAS_STATUS_ENDPOINT)[];

describe('in-doubt decisions', () => {
  it('asks for the status of an expired attempt that may have reached the provider, before any re-send', () => {
    for (const kind of KINDS.filter((k) => HAS_STATUS_ENDPOINT[k])) {
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
      assert.equal(onNotFound(kind).do, RESEND_IS_SAFE[kind] ? 'resend' : 'attention', kind);
    }
    assert.deepEqual(onNotFound('internal_transfer'), { do: 'attention', reason: 'in_doubt_resend_unsafe' });
  });
});
