import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  commandIdentity,
  decodeCommand,
  decodeCommandData,
  decodeQuery,
  eventProblems,
  replyProblems,
} from './decode.js';
import { COMMAND_EXAMPLES, EVENT_EXAMPLES, QUERY_EXAMPLES, REPLY_EXAMPLES } from './examples.js';
import { RULE } from './schemas/common.schema.js';
import { COMMAND_TYPES, commandSchemas, PAYOUT_KIND_NAMES } from './schemas/commands.schema.js';
import { eventSchema } from './schemas/events.schema.js';
import { QUERY_TYPES, querySchemas, queryReplySchema } from './schemas/queries.schema.js';
import { renderAsyncApi, renderContractsDoc } from './render.js';
import { queryReplyHeadersSchema } from './reply-headers.js';
import { buildAsyncApi } from './asyncapi.js';

const ROOT = resolve(import.meta.dirname, '../../../..');

/** The Kafka key a command is sent with: its id (data.transferId, batchTransferId or withdrawalId). */
function keyOf(c: unknown): Buffer {
  const d = (c as { data?: Record<string, unknown> } | undefined)?.data ?? {};
  const id = d['transferId'] ?? d['batchTransferId'] ?? d['withdrawalId'];
  return Buffer.from(typeof id === 'string' ? id : '');
}

describe('contracts', () => {
  it('has an example of every command and query type, and each validates against the runtime schema', () => {
    assert.deepEqual(new Set(COMMAND_EXAMPLES.map((c) => c.type)), new Set(Object.keys(COMMAND_TYPES)));
    assert.deepEqual(new Set(QUERY_EXAMPLES.map((q) => q.type)), new Set(QUERY_TYPES));
    for (const c of COMMAND_EXAMPLES) {
      const r = decodeCommand(Buffer.from(JSON.stringify(c)), Buffer.from(commandIdentity(c)));
      assert.equal(r.ok, true, `${c.type}: ${r.ok ? '' : r.detail}`);
    }
    for (const q of QUERY_EXAMPLES)
      assert.equal(decodeQuery(Buffer.from(JSON.stringify(q))).ok, true, q.type);
    for (const e of EVENT_EXAMPLES) assert.equal(eventProblems(e), undefined, e.type);
    for (const r of REPLY_EXAMPLES) assert.equal(replyProblems(r), undefined, r.type);
  });

  it('lists the payout kinds once: every command but the batch, named without `payout.`', () => {
    assert.deepEqual(PAYOUT_KIND_NAMES, [
      'standard_transfer',
      'direct_transfer',
      'validated_upi_payout',
      'card_payout',
      'internal_transfer',
      'self_withdrawal',
    ]);
    for (const c of COMMAND_EXAMPLES) {
      const field = { 'payout.batch_transfer': 'batchTransferId', 'payout.self_withdrawal': 'withdrawalId' }[
        c.type as string
      ];
      assert.equal(commandIdentity(c), (c.data as unknown as Record<string, string>)[field ?? 'transferId']);
    }
  });

  it('applies one key rule to every command: the Kafka key is the command id, a missing key included', () => {
    for (const c of COMMAND_EXAMPLES) {
      const bytes = Buffer.from(JSON.stringify(c));
      for (const key of [null, Buffer.alloc(0), Buffer.from(`${commandIdentity(c)}x`)]) {
        const r = decodeCommand(bytes, key);
        assert.equal(r.ok, false, `${c.type} with key ${JSON.stringify(key?.toString() ?? null)}`);
        assert.equal(r.ok ? '' : r.reason, 'key_mismatch');
        assert.match(
          r.ok ? '' : r.detail,
          /Kafka key must equal data\.(transferId|batchTransferId|withdrawalId)/,
        );
      }
      assert.equal(decodeCommand(bytes, Buffer.from(commandIdentity(c))).ok, true, c.type);
    }
  });

  it('the AsyncAPI document carries the runtime schemas, and every channel message resolves', () => {
    const doc = buildAsyncApi() as {
      channels: Record<string, { messages: Record<string, { $ref: string }> }>;
      components: { messages: Record<string, { payload: unknown; examples?: Array<{ payload: unknown }> }> };
    };
    for (const ch of Object.values(doc.channels)) {
      for (const m of Object.values(ch.messages)) {
        const name = m.$ref.replace('#/components/messages/', '');
        assert.ok(doc.components.messages[name], `${m.$ref} resolves`);
      }
    }
    // An example in the document that the runtime rejects would be a lie: check them all.
    for (const [name, m] of Object.entries(doc.components.messages)) {
      for (const ex of m.examples ?? []) {
        const bytes = Buffer.from(JSON.stringify(ex.payload));
        if (name.startsWith('payout_')) assert.equal(decodeCommand(bytes, keyOf(ex.payload)).ok, true, name);
        if (name.startsWith('query_')) assert.equal(decodeQuery(bytes).ok, true, name);
        if (name === 'event') assert.equal(eventProblems(ex.payload), undefined, name);
      }
    }
  });

  it('docs/asyncapi.json and docs/CONTRACTS.md are up to date (run npm run contracts)', () => {
    assert.equal(readFileSync(resolve(ROOT, 'docs/asyncapi.json'), 'utf8'), renderAsyncApi());
    assert.equal(readFileSync(resolve(ROOT, 'docs/CONTRACTS.md'), 'utf8'), renderContractsDoc());
  });

  it('describes every pattern and format of every schema in words (x-rule), for dlq-detail', () => {
    const found: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const o = node as Record<string, unknown>;
      if (typeof o['pattern'] === 'string' || typeof o['format'] === 'string') {
        found.push(path);
        const rule = o[RULE];
        assert.equal(typeof rule, 'string', `${path} has a pattern or format without ${RULE}`);
        assert.ok((rule as string).length > 3, path);
        // Not a regular expression again, and nothing the intake would mask as an account number.
        assert.doesNotMatch(rule as string, /[\^$\\[\]]|[0-9]{6}/, path);
      }
      for (const [k, v] of Object.entries(o)) walk(v, `${path}/${k}`);
    };
    for (const [t, s] of Object.entries(commandSchemas)) walk(s, t);
    for (const [t, s] of Object.entries(querySchemas)) walk(s, t);
    walk(eventSchema, 'event');
    walk(queryReplySchema, 'reply');
    walk(queryReplyHeadersSchema, 'reply headers');
    // The walk reaches the shared ones (transferId, amount, text) and the nested ones (batch entries).
    assert.ok(
      found.some((p) => p.endsWith('/entries/items/properties/phone')),
      found.join(' '),
    );
    assert.ok(found.length > 60, `${found.length} patterns walked`);
  });

  it('names the broken field and its rule in words, never the regular expression or the value', () => {
    const c = structuredClone(
      COMMAND_EXAMPLES.find((x) => x.type === 'payout.direct_transfer'),
    ) as unknown as {
      data: { transferId: string; amount: string; beneDetails: Record<string, string> };
    };
    c.data.transferId = 'tr 1002/secret';
    c.data.beneDetails['ifsc'] = 'yesb0000262';
    c.data.amount = '-4111111111111111';
    const r = decodeCommand(Buffer.from(JSON.stringify(c)), Buffer.from(c.data.transferId));
    assert.equal(r.ok ? '' : r.reason, 'schema_violation');
    const detail = r.ok ? '' : r.detail;
    assert.match(detail, /\/data\/transferId must be 1-40 letters, digits, _ or -/);
    assert.match(
      detail,
      /\/data\/beneDetails\/ifsc must be an IFSC: 4 capital letters, 0, then 6 capital letters or digits/,
    );
    assert.match(detail, /\/data\/amount must be a decimal string more than 0/);
    assert.doesNotMatch(detail, /pattern|\^|\$|\[A-Z|secret|yesb|4111/);
    const e = eventProblems({ ...EVENT_EXAMPLES[0], time: 'yesterday' });
    assert.match(e ?? '', /\/time must be an RFC 3339 date-time with a zone/);
  });

  it('refuses a command with a field the service does not know, naming every such field and the policy', () => {
    const c = structuredClone(
      COMMAND_EXAMPLES.find((x) => x.type === 'payout.standard_transfer'),
    ) as unknown as {
      schedule?: string;
      data: Record<string, unknown>;
    };
    c.data['scheduledFor'] = '2027-01-01';
    c.data['splitInto'] = 3;
    c.schedule = 'later';
    const r = decodeCommand(Buffer.from(JSON.stringify(c)), Buffer.from('tr_1001'));
    assert.equal(r.ok ? '' : r.reason, 'schema_violation');
    const detail = r.ok ? '' : r.detail;
    assert.match(detail, /\/data has unknown fields scheduledFor, splitInto/);
    assert.match(detail, /\/ has unknown field schedule(;|$)/);
    assert.match(
      detail,
      /unknown fields are refused, not ignored \(ADR 0022\): upgrade the service before producers/,
    );
    assert.doesNotMatch(detail, /2027|later/);
  });

  it('rejects what the examples would be without their required parts', () => {
    const bad = { type: 'payout.direct_transfer', data: { transferId: 'x', amount: 10 } };
    const r = decodeCommand(Buffer.from(JSON.stringify(bad)), keyOf(bad));
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.reason, 'schema_violation');
    assert.match(r.ok ? '' : r.detail, /amount must be string/);
    assert.match(r.ok ? '' : r.detail, /beneDetails/);
  });

  it('decodes the stored data of every command example, and names the broken field of one that no longer fits, never its value', () => {
    for (const c of COMMAND_EXAMPLES) {
      const r = decodeCommandData(c.type, structuredClone(c.data));
      assert.deepEqual(r, { ok: true, value: c.data }, c.type);
    }
    const r = decodeCommandData('payout.card_payout', {
      transferId: 't1',
      amount: '10.00',
      cardToken: 'tok_secret_4111',
      cardType: 'PLATINUM',
    });
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.reason, 'schema_violation');
    assert.match(
      r.ok ? '' : r.detail,
      /\/data\/cardType must be equal to one of the allowed values: DEBIT, CREDIT/,
    );
    assert.doesNotMatch(r.ok ? '' : r.detail, /tok_secret|PLATINUM/);
    assert.equal(decodeCommandData('payout.self_withdrawal', null).ok, false);
  });

  // What Postgres would refuse must be refused here: a refused row used to stall its partition.
  it('refuses what the ledger cannot store: amount 0, NUL and lone surrogates in any string, an overflowing batch total', () => {
    const refused = (c: unknown) => {
      const r = decodeCommand(Buffer.from(JSON.stringify(c)), keyOf(c));
      return !r.ok && r.reason === 'schema_violation';
    };
    const strings = (v: unknown, path: string[] = []): string[][] =>
      typeof v === 'string'
        ? [path]
        : v && typeof v === 'object'
          ? Object.entries(v).flatMap(([k, x]) => strings(x, [...path, k]))
          : [];
    const withValue = (c: unknown, path: readonly string[], f: (s: string) => string): unknown => {
      const copy = structuredClone(c) as Record<string, unknown>;
      let o = copy;
      for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
      const last = path[path.length - 1] as string;
      o[last] = f(o[last] as string);
      return copy;
    };
    for (const c of COMMAND_EXAMPLES) {
      for (const path of strings(c).filter((p) => p[0] !== 'type')) {
        for (const bad of ['\u0000', '\ud800', '\udfff']) {
          const mid = (s: string) => `${s.slice(0, 1)}${bad}${s.slice(1)}`;
          assert.ok(
            refused(withValue(c, path, mid)),
            `${c.type} /${path.join('/')} with ${JSON.stringify(bad)}`,
          );
        }
      }
      assert.ok(!refused(c), `${c.type} stays valid`);
    }
    const internal = (amount: string) => ({
      type: 'payout.internal_transfer',
      data: { transferId: 't1', amount, rechargeAccount: 'RA1' },
    });
    for (const a of ['0', '0.0', '0.00', '00.10', '1.234', '1000000000000'])
      assert.ok(refused(internal(a)), `amount ${a}`);
    for (const a of ['0.01', '0.1', '0.10', '0.5', '1', '10.5', '999999999999.99'])
      assert.ok(!refused(internal(a)), `amount ${a}`);
    const batch = (n: number) => ({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'b1',
        batchFormat: 'BENEFICIARY_ID',
        entries: Array.from({ length: n }, (_, i) => ({
          transferId: `t${i}`,
          amount: '999999999999.99',
          beneId: 'B1',
          transferMode: 'banktransfer',
        })),
      },
    });
    assert.ok(!refused(batch(100)), '100 entries of the largest amount fit NUMERIC(16,2)');
    assert.ok(refused(batch(101)), '101 do not');
  });

  // Found by the chaos run: bytes that are not UTF-8 inside a beneficiary's name decoded to U+FFFD
  // and a valid command, and a payout went to the provider with a mangled name.
  it('refuses bytes that are not UTF-8 (JSON is UTF-8), wherever they are', () => {
    const c = COMMAND_EXAMPLES.find((x) => x.type === 'payout.direct_transfer');
    const text = JSON.stringify(c);
    const at = text.indexOf('"name":"') + '"name":"'.length;
    const bytes = Buffer.concat([
      Buffer.from(text.slice(0, at)),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
      Buffer.from(text.slice(at)),
    ]);
    assert.equal(decodeCommand(Buffer.from(text), keyOf(c)).ok, true, 'the example without them');
    const r = decodeCommand(bytes, keyOf(c));
    assert.equal(r.ok ? 'accepted' : r.reason, 'malformed_json');
    assert.match(r.ok ? '' : r.detail, /UTF-8/);
    const q = decodeQuery(
      Buffer.concat([Buffer.from('{"type":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    );
    assert.equal(q.ok ? 'accepted' : q.reason, 'malformed_json');
    // A byte order mark is not JSON either, as before.
    assert.equal(decodeCommand(Buffer.from(`\ufeff${text}`), keyOf(c)).ok, false);
  });
});
