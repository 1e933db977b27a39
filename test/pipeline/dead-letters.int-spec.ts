import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { type KafkaMessage } from 'kafkajs';
import { eventually, startStack, type Stack } from '#test-support';

const CARD_TOKEN = '4718610000000001';
const CRYPTOGRAM = 'AgAAAAAAAIR8CQrXSohbQAAAAAA=';
const ACCOUNT = '026291800001191';
const MAX_COMMAND_BYTES = 2048;
/** The dead-letter digest key of this stack (DEAD_LETTER_DIGEST_KEY, base64 of 32 bytes). */
const DIGEST_KEY = Buffer.alloc(32, 42).toString('base64');
const hmacOf = (bytes: Buffer | string) =>
  createHmac('sha256', Buffer.from(DIGEST_KEY, 'base64')).update(bytes).digest('hex');
const sha256Of = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

const internal = (transferId: string, extra: Record<string, unknown> = {}) => ({
  type: 'payout.internal_transfer',
  data: { transferId, amount: '10.00', rechargeAccount: 'RA0001', ...extra },
});
const card = (transferId: string, amount: unknown = '10.00') => ({
  type: 'payout.card_payout',
  data: {
    transferId,
    amount,
    cardToken: CARD_TOKEN,
    cryptogram: CRYPTOGRAM,
    cardType: 'CREDIT',
    networkType: 'VISA',
  },
});
const cardText = JSON.stringify(card('dl_card_trunc'));
const json = (v: unknown) => JSON.stringify(v);

/** Everything goes to partition 0 in one produce request, in this order; offsets start at 0. */
const MESSAGES: ReadonlyArray<{
  key?: string;
  value: string | null;
  reason?: string;
  name: string;
  /** The dead letter's key when it is not the message's own (masked). */
  dlqKey?: string;
}> = [
  { name: 'valid 1', key: 'dl_ok_1', value: json(internal('dl_ok_1')) },
  { name: 'malformed JSON', value: '{not json at all', reason: 'malformed_json' },
  {
    name: 'truncated card payout (cut inside the cryptogram)',
    key: 'dl_card_trunc',
    value: cardText.slice(0, cardText.indexOf(CRYPTOGRAM) + 12),
    reason: 'malformed_json',
  },
  { name: 'valid 2', key: 'dl_ok_2', value: json(internal('dl_ok_2')) },
  {
    name: 'oversized',
    key: 'dl_big',
    value: json({ ...internal('dl_big'), padding: 'x'.repeat(MAX_COMMAND_BYTES) }),
    reason: 'oversized',
  },
  {
    name: 'amount as a number',
    key: 'dl_num',
    value: json(internal('dl_num', { amount: 10 })),
    reason: 'schema_violation',
  },
  {
    name: 'missing field',
    key: 'dl_missing',
    value: json({ type: 'payout.internal_transfer', data: { transferId: 'dl_missing', amount: '10.00' } }),
    reason: 'schema_violation',
  },
  {
    name: 'unknown type',
    key: 'dl_type',
    value: json({ ...internal('dl_type'), type: 'payout.teleport' }),
    reason: 'unknown_type',
  },
  { name: 'key mismatch', key: 'someone_else', value: json(internal('dl_key')), reason: 'key_mismatch' },
  {
    name: 'card payout, amount as a number',
    key: 'dl_card_num',
    value: json(card('dl_card_num', 10)),
    reason: 'schema_violation',
  },
  {
    name: 'direct transfer with an account number, amount as a number',
    key: 'dl_direct',
    value: json({
      type: 'payout.direct_transfer',
      data: {
        transferId: 'dl_direct',
        amount: 150,
        beneDetails: { name: 'A Person', bankAccount: ACCOUNT, ifsc: 'YESB0000262' },
      },
    }),
    reason: 'schema_violation',
  },
  {
    name: 'card payout with an unquoted cryptogram',
    key: 'dl_card_bad',
    value: cardText.replace(`"${CRYPTOGRAM}"`, CRYPTOGRAM).replace('dl_card_trunc', 'dl_card_bad'),
    reason: 'malformed_json',
  },
  { name: 'no value (tombstone)', key: 'dl_empty', value: null, reason: 'empty' },
  { name: 'valid 3', key: 'dl_ok_3', value: json(internal('dl_ok_3')) },
  {
    name: 'an amount out of its pattern, and a field the service does not know',
    key: 'dl_rule',
    value: json(internal('dl_rule', { amount: '10.001', scheduledFor: '2030-01-01' })),
    reason: 'schema_violation',
  },
  // Issue 30, defect 6: a transferId is an id, kept whole in the key, so an operator finds the command.
  {
    name: 'a transferId with digits, as the key',
    key: 'PO-2026112700001',
    value: json(internal('PO-2026112700001', { amount: 10 })),
    reason: 'schema_violation',
  },
  // ...while a key that is not the message's id, an account number, is masked.
  {
    name: 'an account number as the key',
    key: ACCOUNT,
    value: json(internal('dl_acct_key', { amount: 10 })),
    reason: 'schema_violation',
    dlqKey: 'XXXXXXXXXXX1191',
  },
  // Issue 30, defect 6: an account the service does not have is refused at intake, with a reason.
  {
    name: 'an unknown account',
    key: 'dl_nobody',
    value: json({ ...internal('dl_nobody'), accountId: 'acc_nobody' }),
    reason: 'unknown_account',
  },
];
const DEAD = MESSAGES.filter((m) => m.reason !== undefined);
const VALID = MESSAGES.filter((m) => m.reason === undefined);

// Invariant 4 and 5: bad messages go to the DLQ with their reason, never stall the partition,
// are counted, and carry no secret and no full account number.
describe('dead letters', () => {
  let stack: Stack;
  const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();
  const dlqAt = (offset: number) =>
    stack.dlq.find((m) => header(m, 'dlq-original-offset') === String(offset));

  before(async () => {
    stack = await startStack({
      env: { MAX_COMMAND_BYTES: String(MAX_COMMAND_BYTES), DEAD_LETTER_DIGEST_KEY: DIGEST_KEY },
    });
    await stack.startService();
    await stack.sendToPartition(
      0,
      MESSAGES.map((m) => ({ key: m.key, value: m.value })),
    );
  });
  after(async () => {
    await stack?.close();
  });

  it('valid messages behind the bad ones on the same partition reach their terminal state', async () => {
    for (const m of VALID) await stack.waitForStatus(String(m.key), 'SUCCESS');
  });

  it('each bad message is dead-lettered once, with its reason, position and detail', async () => {
    await eventually(() => (stack.dlq.length >= DEAD.length ? true : undefined), {
      what: `${DEAD.length} dead letters`,
    });
    assert.equal(stack.dlq.length, DEAD.length);
    MESSAGES.forEach((m, offset) => {
      const d = dlqAt(offset);
      if (m.reason === undefined) return assert.equal(d, undefined, `${m.name} is not dead-lettered`);
      assert.ok(d, `${m.name} is dead-lettered`);
      assert.equal(header(d, 'dlq-reason'), m.reason, m.name);
      assert.ok(header(d, 'dlq-detail'), `${m.name} has a detail`);
      assert.equal(header(d, 'dlq-original-partition'), '0');
      assert.ok(header(d, 'dlq-original-topic')?.endsWith('.payouts.commands'));
      assert.equal(d.key?.toString() ?? undefined, m.dlqKey ?? m.key, `${m.name}: its key`);
      const original = Buffer.from(m.value ?? '');
      assert.equal(header(d, 'dlq-original-hmac-sha256'), hmacOf(original));
    });
    assert.match(
      String(header(dlqAt(17) as KafkaMessage, 'dlq-detail')),
      /accountId is not one of this service's accounts/,
    );
    assert.match(String(header(dlqAt(6) as KafkaMessage, 'dlq-detail')), /rechargeAccount/);
    assert.match(String(header(dlqAt(5) as KafkaMessage, 'dlq-detail')), /\/data\/amount/);
  });

  it('a schema violation says the rule in words and names unknown fields, in the header, the row and the ops view', async () => {
    const rule = String(header(dlqAt(14) as KafkaMessage, 'dlq-detail'));
    assert.match(rule, /\/data\/amount must be a decimal string more than 0: up to 12 digits/);
    assert.match(rule, /\/data has unknown field scheduledFor;/);
    assert.match(
      rule,
      /unknown fields are refused, not ignored \(ADR 0022\): upgrade the service before producers/,
    );
    assert.doesNotMatch(rule, /pattern|\^|\[0-9\]|10\.001|2030/, 'no regular expression, no value');
    const [row] = await stack.sql<{ detail: { detail: string } }>(
      `SELECT detail FROM dead_letter WHERE "offset" = '14'`,
    );
    assert.equal(row?.detail.detail, rule, 'the row (and the ops view, which shows it) says the same');
  });

  it('a message with nothing sensitive keeps its original bytes', () => {
    const d = dlqAt(1) as KafkaMessage;
    assert.equal(d.value?.toString(), '{not json at all');
    assert.equal(header(d, 'dlq-scrubbed'), 'false');
    assert.equal(dlqAt(12)?.value, null, 'a tombstone stays a tombstone');
  });

  it('commands in = valid + dead-lettered, in the ledger and the dead_letter table', async () => {
    const [payouts] = await stack.sql<{ n: number }>('SELECT count(*)::int AS n FROM payout');
    const [dead] = await stack.sql<{ n: number }>('SELECT count(*)::int AS n FROM dead_letter');
    assert.equal(payouts?.n, VALID.length);
    assert.equal(dead?.n, DEAD.length);
    assert.equal((payouts?.n ?? 0) + (dead?.n ?? 0), MESSAGES.length);
    const reasons = await stack.sql<{ offset: string; reason: string }>(
      'SELECT "offset", reason FROM dead_letter WHERE partition = 0 ORDER BY "offset"::bigint',
    );
    assert.deepEqual(
      reasons.map((r) => [Number(r.offset), r.reason]),
      MESSAGES.flatMap((m, i) => (m.reason ? [[i, m.reason]] : [])),
    );
  });

  it('no card token, cryptogram (or a piece of it) or full account number in the DLQ, its table or the logs', async () => {
    const forbidden = [CARD_TOKEN, CRYPTOGRAM, CRYPTOGRAM.slice(0, 10), ACCOUNT];
    const texts = stack.dlq.map((m) =>
      [m.value?.toString() ?? '', ...Object.values(m.headers ?? {}).map((h) => String(h))].join('\n'),
    );
    const table = await stack.sql<{ detail: unknown }>('SELECT detail FROM dead_letter');
    texts.push(JSON.stringify(table), stack.logLines.join('\n'));
    for (const t of texts) for (const f of forbidden) assert.ok(!t.includes(f), `found ${f} in:\n${t}`);
    for (const offset of [2, 9, 10, 11]) {
      assert.equal(
        header(dlqAt(offset) as KafkaMessage, 'dlq-scrubbed'),
        'true',
        `offset ${offset} was scrubbed`,
      );
    }
    // Scrubbed, not emptied: support can still see what it was.
    assert.match(String(dlqAt(9)?.value), /"transferId":"dl_card_num"/);
    assert.match(String(dlqAt(10)?.value), /1191/);
  });

  it('a message at the broker size limit is dead-lettered cut short, and the partition keeps flowing', async () => {
    // The broker takes record batches up to 1048588 bytes by default; a full copy of this plus the
    // dlq-* headers would not fit into the DLQ.
    const head = json({ ...internal('dl_huge'), padding: '' }).slice(0, -2);
    const huge = `${head}${'x'.repeat(1_048_300 - head.length - 2)}"}`;
    await stack.sendToPartition(0, [{ key: 'dl_huge', value: huge }]);
    await stack.sendToPartition(0, [{ key: 'dl_ok_4', value: json(internal('dl_ok_4')) }]);
    await stack.waitForStatus('dl_ok_4', 'SUCCESS');
    const d = await eventually(() => dlqAt(MESSAGES.length), { what: 'the dead letter of the huge message' });
    assert.equal(header(d, 'dlq-reason'), 'oversized');
    // The service's own counts, not input: never masked as if they were account numbers (issue 24).
    assert.equal(header(d, 'dlq-detail'), `${Buffer.byteLength(huge)} bytes > ${MAX_COMMAND_BYTES}`);
    assert.equal(header(d, 'dlq-truncated'), 'true');
    assert.equal(header(d, 'dlq-original-hmac-sha256'), hmacOf(huge));
    assert.equal(d.value?.toString(), huge.slice(0, MAX_COMMAND_BYTES));
  });

  it('the digest of the original is keyed (issue 30, defect 4): a masked phone cannot be found by trying candidates', async () => {
    const phone = '9876543210';
    const command = (p: string) =>
      json({
        type: 'payout.direct_transfer',
        data: {
          transferId: 'dl_phone',
          amount: 150,
          beneDetails: { name: 'A Person', phone: p, vpa: 'asha@okbank', ifsc: 'YESB0000262' },
        },
      });
    await stack.sendToPartition(0, [{ key: 'dl_phone', value: command(phone) }]);
    const d = await eventually(() => stack.dlq.find((m) => m.key?.toString() === 'dl_phone'), {
      what: 'the dead letter with a phone',
    });
    assert.doesNotMatch(String(d.value), new RegExp(phone), 'the phone is masked in the value');
    assert.equal(header(d, 'dlq-original-hmac-sha256'), hmacOf(command(phone)));
    // What an attacker holding the dead letter would try: every header against the plain digest.
    const headers = Object.values(d.headers ?? {}).map((h) => String(h));
    assert.ok(!headers.includes(sha256Of(command(phone))), 'no unkeyed digest of the original');
    assert.equal(header(d, 'dlq-original-sha256'), undefined);
  });
});
