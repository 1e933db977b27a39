import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decideAfterSubmit } from './decide-after-submit.js';

const timings = { firstCheckMs: 1000, resendMs: 100, fatalConfigMs: 60_000 };
const diagnostics = (message?: string) => ({
  endpoint: 'directTransfer' as const,
  requestId: 'r',
  sent: true,
  attempts: 1,
  durationMs: 1,
  subCode: '422',
  message,
});

describe('decideAfterSubmit', () => {
  it('carries the provider message as the reason, with any account number in it masked', () => {
    const d = decideAfterSubmit(
      {
        result: {
          outcome: 'failed',
          kind: 'rejected',
          reason: 'Invalid bank account',
          diagnostics: diagnostics('Invalid bank account number 026291800001191 for IFSC YESB0000262'),
        },
      },
      timings,
    );
    assert.equal(d.to, 'FAILED');
    assert.equal(d.reason, 'Invalid bank account number XXXXXXXXXXX1191 for IFSC YESB0000262');
  });

  it('never re-initiates on "already exists": the payout is UNKNOWN and checked at once', () => {
    const d = decideAfterSubmit(
      {
        result: {
          outcome: 'failed',
          kind: 'duplicate',
          reason: 'Transfer Id already exists',
          diagnostics: diagnostics('Transfer Id already exists'),
        },
      },
      timings,
    );
    assert.deepEqual(d, { to: 'UNKNOWN', reason: 'already_exists_at_provider', recheckInMs: 0 });
  });
});
