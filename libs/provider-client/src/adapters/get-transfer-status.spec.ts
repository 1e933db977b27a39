import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type HttpAnswer } from '../core/http-answer.js';
import { getTransferStatusAdapter } from './get-transfer-status.adapter.js';
import { getTransferStatusV2Adapter } from './get-transfer-status-v2.adapter.js';

const answer = (statusCode: number, body: unknown): HttpAnswer => ({
  statusCode,
  headers: {},
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** The kind of a `failed` classification, else the outcome class: one string to compare. */
function verdict(a: { outcome: string; kind?: string }): string {
  return a.outcome === 'failed' ? `failed/${a.kind ?? ''}` : a.outcome;
}

/*
 * "Not found" settles an internal transfer FAILED once the settle window has passed (decide-check):
 * only the provider's own words that the transfer is unknown may count as not found. A 404 from a
 * proxy, a gateway or another resource is an unclear answer, asked again later (issue 21, finding 3).
 */
describe('getTransferStatus: what counts as "not found"', () => {
  for (const message of [
    'TransferId is invalid or does not exist',
    'ReferenceId is invalid or does not exist.',
    'transferid is invalid or does not exist',
  ]) {
    for (const http of [200, 404]) {
      it(`subCode 404 "${message}" (HTTP ${http}) is not found`, () => {
        const c = getTransferStatusAdapter.classify(answer(http, { status: 'ERROR', subCode: 404, message }));
        assert.equal(verdict(c), 'failed/not-found');
      });
    }
  }
  for (const [what, a] of [
    ['another message', answer(404, { status: 'ERROR', subCode: 404, message: 'Not Found' })],
    ['no message', answer(404, { status: 'ERROR', subCode: '404' })],
    [
      'a route the gateway does not know',
      answer(404, { status: 'ERROR', subCode: 404, message: 'Route not found' }),
    ],
    ["a proxy's HTML page", answer(404, '<html><body>404 Not Found</body></html>')],
    ['an empty body', answer(404, '')],
  ] as const) {
    it(`a 404 with ${what} is unknown, never not found`, () => {
      const c = getTransferStatusAdapter.classify(a);
      assert.equal(verdict(c), 'unknown', JSON.stringify(c));
    });
  }
});

describe('getTransferStatusV2: what counts as "not found"', () => {
  for (const code of ['transfer_id_not_found', 'cf_transfer_id_not_found', 'svc_transfer_id_not_found']) {
    it(`404 ${code} is not found`, () => {
      const c = getTransferStatusV2Adapter.classify(
        answer(404, { type: 'invalid_request_error', code, message: 'transfer_id does not exist' }),
      );
      assert.equal(verdict(c), 'failed/not-found', JSON.stringify(c));
    });
  }
  for (const [what, a] of [
    [
      'another code',
      answer(404, { type: 'invalid_request_error', code: 'beneficiary_not_found', message: 'x' }),
    ],
    ['no code', answer(404, { type: 'invalid_request_error', message: 'transfer_id does not exist' })],
    ["a proxy's HTML page", answer(404, '<html><body>404 Not Found</body></html>')],
  ] as const) {
    it(`a 404 with ${what} is unknown, never not found`, () => {
      const c = getTransferStatusV2Adapter.classify(a);
      assert.equal(verdict(c), 'unknown', JSON.stringify(c));
    });
  }
});
