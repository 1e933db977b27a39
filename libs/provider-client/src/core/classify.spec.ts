import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as adapters from '../adapters/index.js';
import { REGISTERED_ENDPOINTS } from '../endpoints/adapter-registry.js';
import { type HttpAnswer } from './http-answer.js';
import { type Classified, OUTCOME_CLASSES } from './outcome.js';

interface Classifier {
  readonly name: string;
  classify(a: HttpAnswer): Classified<unknown>;
}

const all = Object.values(adapters as Record<string, unknown>).filter(
  (v): v is Classifier =>
    typeof v === 'object' && v !== null && 'classify' in v && typeof v.classify === 'function',
);

const statusWord = fc.constantFrom(
  'SUCCESS',
  'success',
  'PENDING',
  'pending',
  'ERROR',
  'error',
  'RECEIVED',
  'weird',
);
const code = fc.oneof(
  fc.integer({ min: -1, max: 999 }),
  fc.integer({ min: 0, max: 999 }).map(String),
  fc.string(),
);
const envelope = fc.record(
  {
    status: fc.oneof(statusWord, fc.string(), fc.integer()),
    subCode: code,
    statusCode: code,
    message: fc.oneof(
      fc.constantFrom('Token is not valid', 'IP not whitelisted', 'already exists'),
      fc.string(),
    ),
    data: fc.oneof(
      fc.anything(),
      fc.record({ transfer: fc.record({ status: statusWord }), token: fc.string(), expiry: fc.integer() }),
    ),
    code: fc.string(),
    transfer_id: fc.string(),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  envelope.map((e) => JSON.stringify(e)),
  fc.json(),
  fc.string(),
  fc.constant(''),
  fc.constant('{"status":null}'),
);
const answer: fc.Arbitrary<HttpAnswer> = fc.record({
  statusCode: fc.oneof(
    fc.constantFrom(200, 201, 400, 401, 403, 404, 409, 412, 422, 429, 500, 502, 520),
    fc.integer({ min: 100, max: 599 }),
  ),
  headers: fc.dictionary(
    fc.constantFrom('x-ratelimit-retry', 'retry-after', 'content-type', 'x-other'),
    fc.oneof(fc.string(), fc.integer({ min: 0, max: 100 }).map(String)),
  ),
  body,
});

describe('classification (property)', () => {
  // Every adapter exported is registered, and every registered one is walked here.
  it(`covers ${all.length} adapters`, () => assert.equal(all.length, REGISTERED_ENDPOINTS.length));

  it('arbitrary status codes and bodies always classify into a known class and never throw', () => {
    fc.assert(
      fc.property(fc.constantFrom(...all), answer, (adapter, a) => {
        const c = adapter.classify(a);
        assert.ok(OUTCOME_CLASSES.includes(c.outcome));
        if (c.outcome === 'failed') assert.ok(c.kind.length > 0);
        if (c.outcome === 'success') assert.notEqual(c.data, undefined);
      }),
      { numRuns: 3000 },
    );
  });
});
