import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { opsOpenApi } from './openapi.js';
import { OperationsErrorCode } from './operations.errors.js';
import { PROBLEM_JSON, PROBLEM_TITLES, problemCodeOfStatus, problemDetails } from './problem-details.js';

describe('problem details', () => {
  it('have a type and a title for every code, the path without its query as instance', () => {
    for (const code of Object.values(OperationsErrorCode)) assert.ok(PROBLEM_TITLES[code], code);
    assert.deepEqual(
      problemDetails({
        status: 409,
        code: 'terminal',
        detail: 'final',
        path: '/ops/payouts/a/b/recheck?x=1',
      }),
      {
        type: 'urn:payouts:problem:terminal',
        title: 'The payout is final',
        status: 409,
        detail: 'final',
        instance: '/ops/payouts/a/b/recheck',
        code: 'terminal',
      },
    );
    // A searched account number in the query string never comes back.
    const p = problemDetails({
      status: 400,
      code: 'invalid_input',
      detail: 'd',
      path: '/ops/payouts?q=026291800001191',
    });
    assert.equal(p.instance, '/ops/payouts');
    // A code nobody declared falls back to its status's, so `type` and `title` stay stable.
    assert.equal(
      problemDetails({ status: 413, code: 'whatever', detail: 'd', path: '/' }).code,
      'payload_too_large',
    );
    assert.equal(
      problemDetails({ status: 400, code: 'x', detail: 'd', path: `/${'a'.repeat(9000)}` }).instance.length,
      256,
    );
    for (const s of [400, 401, 403, 404, 405, 409, 413, 415, 418, 429, 500, 502, 503])
      assert.ok(PROBLEM_TITLES[problemCodeOfStatus(s)], String(s));
  });

  it('the OpenAPI document declares every error response as application/problem+json (Problem)', () => {
    const doc = opsOpenApi() as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
      >;
    };
    let errors = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          errors += 1;
          assert.deepEqual(
            r.content,
            { [PROBLEM_JSON]: { schema: { $ref: '#/components/schemas/Problem' } } },
            `${method} ${path} ${status}`,
          );
        }
        assert.ok(op.responses['500'], `${method} ${path} 500`);
      }
    }
    assert.ok(errors > 50, String(errors));
  });
});
