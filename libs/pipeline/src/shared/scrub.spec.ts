import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCommand, MAX_COMMAND_BYTES } from '#contracts';
import { idsNamedIn, scrubForDeadLetter, scrubText } from './scrub.js';

const scrub = (s: string) => scrubForDeadLetter(Buffer.from(s)).bytes.toString();

describe('scrubForDeadLetter', () => {
  it('redacts secrets in parsed JSON and keeps clean bytes as they are', () => {
    assert.equal(scrub('{"cardToken":"4718610000000001","a":1}'), '{"cardToken":"[REDACTED]","a":1}');
    assert.deepEqual(scrubForDeadLetter(Buffer.from('{not json')), {
      bytes: Buffer.from('{not json'),
      scrubbed: false,
    });
  });

  it('redacts a secret cut short by truncation', () => {
    assert.equal(scrub('{"cryptogram":"AgAAAAAAAIR8'), '{"cryptogram":"[REDACTED]');
  });

  it('redacts a bare (unquoted) secret in text that is not JSON, whatever the key case', () => {
    assert.equal(scrub('{"cryptogram":AgAAAAAAAIR8CQ=,"x":1'), '{"cryptogram":"[REDACTED]","x":1');
    assert.equal(scrub('{"CRYPTOGRAM": AgAAAAAAAIR8CQ= }'), '{"CRYPTOGRAM": "[REDACTED]" }');
  });

  it('masks long digit runs in text that is not JSON', () => {
    assert.equal(scrub('{"bankAccount":"026291800001191"'), '{"bankAccount":"XXXXXXXXXXX1191"');
  });
});

describe('scrubForDeadLetter: account numbers under any key, of any type or length', () => {
  it('masks a numeric bankAccount, numbers in arrays, unknown account-like keys and 6-8 digit runs', () => {
    const out = scrub(
      JSON.stringify({
        type: 'payout.direct_transfer',
        data: {
          transferId: 'tr_20261123123456',
          bankAccount: 26291800001191,
          accounts: [26291800001191, '1234567'],
          numbers: [12345678, 42],
          rechargeAccount: 'RA0001',
          acctNo: 'AB12',
          note: 'pay to a/c 1234567 or 12345678, Rs. 100000, 150000.50',
          '987654321': 'key',
          amount: 10,
        },
      }),
    );
    for (const leak of ['26291800001191', '1234567', '12345678', 'RA0001', '987654321', 'AB12'])
      assert.ok(!out.includes(leak), `${leak} in ${out}`);
    const data = (JSON.parse(out) as { data: Record<string, unknown> }).data;
    assert.equal(data['transferId'], 'tr_20261123123456', 'ids are kept whole');
    assert.equal(data['bankAccount'], 'XXXXXXXXXX1191');
    assert.deepEqual(data['accounts'], ['XXXXXXXXXX1191', 'XXX4567']);
    assert.deepEqual(data['numbers'], ['XXXX5678', 42]);
    assert.equal(data['rechargeAccount'], 'XX0001');
    assert.equal(data['note'], 'pay to a/c XXX4567 or XXXX5678, Rs. 100000, 150000.50');
    assert.equal(data['XXXXX4321'], 'key');
    assert.equal(data['amount'], 10);
  });

  it('masks 6-8 digit runs in text that is not JSON', () => {
    assert.equal(scrub('{"rechargeAccount":"1234567","x":"12'), '{"rechargeAccount":"XXX4567","x":"12');
  });

  it('keeps ids whole in text that is not JSON, and names them (issue 30, defect 6)', () => {
    const cut =
      '{"type":"payout.direct_transfer","data":{"transferId":"PO-2026112700001","bankAccount":"026291800001191","email":"asha@example.com';
    assert.equal(
      scrubText(cut),
      '{"type":"payout.direct_transfer","data":{"transferId":"PO-2026112700001","bankAccount":"XXXXXXXXXXX1191","email":"as***@example.com',
    );
    assert.deepEqual([...idsNamedIn(cut)], ['PO-2026112700001']);
    assert.equal(scrubText('PO-2026112700001'), 'PO-XXXXXXXXX0001', 'a bare key is not known to be an id');
  });
});

describe('decodeCommand detail of malformed JSON', () => {
  it('does not quote the message text', () => {
    const r = decodeCommand(
      Buffer.from('{"type":"payout.card_payout","data":{"cryptogram":AgAAAAAAAIR8CQ}}'),
      null,
    );
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.reason === 'malformed_json');
    assert.ok(!r.ok && !r.detail.includes('AgAAA'), !r.ok ? r.detail : '');
  });

  it('keeps a scrubbed, cut copy of JSON nested too deep to serialise (no stack overflow)', () => {
    const deep = '{"a":['.repeat(50_000) + '1' + ']}'.repeat(50_000);
    const r = scrubForDeadLetter(Buffer.from(deep));
    assert.equal(r.scrubbed, true);
    assert.ok(r.bytes.toString().includes('[Too deep]'));
  });
});

describe('scrubForDeadLetter: VPAs, in time linear in the size of the message', () => {
  it('masks a VPA in parsed JSON and in text that is not JSON', () => {
    assert.equal(scrub('{"note":"pay success@upi now"}'), '{"note":"pay su***@upi now"}');
    assert.equal(scrub('{"note":"pay a@upi'), '{"note":"pay a***@upi');
    assert.equal(scrub('{"x":"ab.cd-ef_g@ok.bank-1!"}'), '{"x":"ab***@ok.bank-1!"}');
  });

  it('masks what the former pattern masked (a seeded comparison on short strings)', () => {
    const former = /([A-Za-z0-9._-]{1,2})[A-Za-z0-9._-]*@([A-Za-z0-9.-]+)/g;
    const alphabet = 'ab9._-@ @@x.-_!';
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let n = 0; n < 5_000; n += 1) {
      let s = '';
      for (let i = Math.floor(next() * 14); i > 0; i -= 1)
        s += alphabet[Math.floor(next() * alphabet.length)];
      const text = `{"note":"${s}`; // not JSON: scrubbed as text
      const expected = text.replace(former, (_m, head: string, domain: string) => `${head}***@${domain}`);
      assert.equal(scrub(text), expected, JSON.stringify(s));
    }
  });

  it('scrubs a long run of name characters without backtracking over it (a hostile padding stalled the partition)', () => {
    // A run of 128 KiB letters took the former pattern some 40 s here (quadratic); a message near the
    // 512 KiB limit, minutes, longer than the consumer's session: the partition stalled for good.
    for (const text of [`{"padding":"${'p'.repeat(128 * 1024)}"}`, `{"padding":"${'p'.repeat(128 * 1024)}`]) {
      const started = performance.now();
      scrub(text);
      const took = performance.now() - started;
      assert.ok(took < 1_000, `${took.toFixed(0)} ms for ${text.length} characters`);
    }
    const near = `{"type":"payout.direct_transfer","data":{"padding":"${'p'.repeat(MAX_COMMAND_BYTES - 64)}"}}`;
    const started = performance.now();
    scrub(near);
    assert.ok(performance.now() - started < 2_000, 'a message near the size limit');
  });
});
