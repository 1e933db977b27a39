import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { maskAccountNumber, maskVpa, redactDeep, REDACTED } from './redact.js';
import { createLogger } from './logger.js';

describe('redactDeep', () => {
  it('removes secrets at any depth, in any key spelling, including inside errors', () => {
    const err = new Error('boom', { cause: { headers: { 'x-client-secret': 's3cr3t' } } });
    const out = JSON.stringify(
      redactDeep({
        headers: { Authorization: 'Bearer abc.def', 'X-Svc-Signature': 'sig' },
        body: {
          transfer_token: 'tt-1',
          cryptogram: 'cg',
          token: 'card-tok',
          nested: [{ clientSecret: 'cs' }],
        },
        err,
      }),
    );
    for (const secret of ['abc.def', 'sig', 'tt-1', 'cg', 'card-tok', 'cs', 's3cr3t']) {
      assert.ok(!out.includes(`"${secret}"`) && !out.includes(secret + '"'), `${secret} leaked: ${out}`);
    }
    assert.ok(out.includes(REDACTED));
    assert.ok(out.includes('boom'));
  });

  it('masks account numbers and VPAs instead of dropping them', () => {
    assert.equal(maskAccountNumber('026291800001191'), 'XXXXXXXXXXX1191');
    assert.equal(maskVpa('success@upi'), 'su***@upi');
    const out = redactDeep({ beneDetails: { bankAccount: '026291800001191', vpa: 'success@upi' } });
    assert.deepEqual(out, { beneDetails: { bankAccount: 'XXXXXXXXXXX1191', vpa: 'su***@upi' } });
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a['self'] = a;
    assert.deepEqual(redactDeep(a), { name: 'a', self: '[Circular]' });
  });
});

describe('createLogger', () => {
  it('writes JSON lines with secrets redacted', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const log = createLogger({ level: 'info', name: 'test', destination: sink });
    log.info(
      { request: { headers: { authorization: 'Bearer topsecret' }, bankAccount: '1234567890' } },
      'sent',
    );
    await new Promise((r) => setImmediate(r));
    const line = JSON.parse(lines.join('')) as Record<string, unknown>;
    assert.equal(line['msg'], 'sent');
    assert.equal(line['level'], 'info');
    assert.ok(!lines.join('').includes('topsecret'));
    assert.ok(!lines.join('').includes('1234567890'));
  });

  it("masks a database error's detail: the failing row, a key's values (issue 30, defect 6)", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const log = createLogger({ level: 'info', name: 'test', destination: sink });
    // As pg's DatabaseError carries them (severity, code, detail, where...).
    const checkFailed = Object.assign(new Error('new row for relation "payout" violates check constraint'), {
      severity: 'ERROR',
      code: '23514',
      detail:
        'Failing row contains (7, acc, tr_1, {"beneDetails": {"name": "Asha Rao", "bankAccount": "026291800001191", "email": "asha.rao@example.com", "vpa": "asha@okicici"}}).',
      where: 'SQL function "x" statement 1, value "026291800001191"',
    });
    const duplicate = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      detail: 'Key (account_id, email)=(acc, asha.rao@example.com) already exists.',
    });
    log.warn({ err: checkFailed }, 'a statement failed');
    log.warn({ err: duplicate, nested: { cause: duplicate } }, 'another');
    await new Promise((r) => setImmediate(r));
    const text = lines.join('');
    for (const leaked of ['026291800001191', 'asha.rao@example.com', 'asha@okicici', 'Asha Rao'])
      assert.ok(!text.includes(leaked), `${leaked} leaked: ${text}`);
    const [first, second] = lines.map((l) => JSON.parse(l) as { err: Record<string, string> });
    assert.match(first?.err['detail'] ?? '', /^Failing row contains \[REDACTED\]/);
    assert.equal(first?.err['code'], '23514', 'the SQLSTATE stays');
    assert.match(
      second?.err['detail'] ?? '',
      /^Key \(account_id, email\)=\(acc, as\*\*\*@example\.com\) already exists/,
    );
  });

  it('cuts nesting deeper than it can walk instead of overflowing the stack (a hostile command)', () => {
    let deep: unknown = { bankAccount: '1234567890' };
    for (let i = 0; i < 20_000; i++) deep = { a: [deep] };
    const out = JSON.stringify(redactDeep(deep));
    assert.ok(out.includes('[Too deep]'));
    assert.ok(!out.includes('1234567890'));
  });
});
