import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { commandIdentity, decodeCommand, decodeQuery } from './decode.js';
import { COMMAND_EXAMPLES, QUERY_EXAMPLES } from './examples.js';

/*
 * A command's requestId travels to the provider as the X-Request-Id header. A value HTTP cannot
 * carry in a header (CR, LF, NUL, other control characters, characters past Latin-1) passed the
 * schema, was refused locally by the HTTP client, and the call was recorded as sent (issue 29,
 * defect 5). The schema now accepts only what a header carries unchanged: visible ASCII.
 */
const REFUSED: readonly (readonly [string, string])[] = [
  ['CR LF', 'req\r\nX-Injected: 1'],
  ['LF', 'req\nmore'],
  ['CR', 'req\r'],
  ['a tab', 'req\t1'],
  ['a space', 'req 1'],
  ['DEL', 'req\u007f'],
  ['a non-ASCII letter', 'req-é'],
  ['an emoji', 'req-😀'],
];
const ACCEPTED = ['req-7f3a', 'tr_1001:2', '6f1c2b8e-93c4-4b9f-a4b1-3f0d2c9b7a11', 'a.b/c+d=e~!'];

const example = COMMAND_EXAMPLES[0]!;
const command = (requestId: string) => ({ ...example, requestId });

describe('requestId: only what an HTTP header carries unchanged', () => {
  for (const [what, id] of REFUSED) {
    it(`a requestId with ${what} is refused (command and query)`, () => {
      const c = command(id);
      const r = decodeCommand(Buffer.from(JSON.stringify(c)), Buffer.from(commandIdentity(c)));
      assert.equal(r.ok, false, what);
      assert.match(r.ok ? '' : r.detail, /requestId/);
      const q = { ...QUERY_EXAMPLES[0]!, requestId: id };
      assert.equal(decodeQuery(Buffer.from(JSON.stringify(q))).ok, false, what);
    });
  }
  for (const id of ACCEPTED) {
    it(`"${id}" is accepted`, () => {
      const c = command(id);
      const r = decodeCommand(Buffer.from(JSON.stringify(c)), Buffer.from(commandIdentity(c)));
      assert.equal(r.ok, true, r.ok ? '' : r.detail);
    });
  }
});
