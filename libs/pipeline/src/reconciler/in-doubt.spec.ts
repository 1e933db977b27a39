import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PAYOUT_KIND_NAMES as KINDS, PROVIDER_APIS } from '#contracts';
import { hasStatusCheck, traitsOf } from '../shared/payout-kinds.js';
import { onExpiredSubmission, onNotFound } from './in-doubt.js';

/** Every kind on every generation: the traits are the connector's, by the generation a payout was sent on. */
const ROWS = PROVIDER_APIS.flatMap((providerApi) => KINDS.map((kind) => ({ kind, providerApi })));

describe('in-doubt decisions', () => {
  it('asks for the status of an expired attempt that may have reached the provider, before any re-send', () => {
    for (const row of ROWS.filter((r) => hasStatusCheck(r.kind, r.providerApi))) {
      const label = `${row.providerApi} ${row.kind}`;
      assert.deepEqual(onExpiredSubmission(row, null), { do: 'ask-status' }, label);
      assert.deepEqual(
        onExpiredSubmission(row, { endpoint: 'x', processed: true }),
        { do: 'ask-status' },
        label,
      );
    }
  });

  it('re-sends at once only an attempt the provider said it did not process', () => {
    for (const row of ROWS) {
      assert.deepEqual(onExpiredSubmission(row, { processed: false }), { do: 'resend' }, row.kind);
    }
  });

  it('hands an in-doubt self withdrawal (no status endpoint, no dedupe) to a person', () => {
    for (const providerApi of PROVIDER_APIS) {
      assert.deepEqual(onExpiredSubmission({ kind: 'self_withdrawal', providerApi }, null), {
        do: 'attention',
        reason: 'in_doubt_resend_unsafe',
      });
    }
  });

  it('re-sends after "not found" only the kinds the provider deduplicates', () => {
    for (const row of ROWS) {
      assert.equal(onNotFound(row).do, traitsOf(row).resendIsSafe ? 'resend' : 'attention', row.kind);
    }
    assert.deepEqual(onNotFound({ kind: 'internal_transfer' }), {
      do: 'attention',
      reason: 'in_doubt_resend_unsafe',
    });
  });
});
