import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, operatorsEnv, startStack, type Stack } from '#test-support';

// Invariant 5: no secret (client secret, bearer token, card token, cryptogram, transfer token, SDK
// token) and no full account number or VPA in logs, events, metrics, the DLQ (values and headers),
// the dead_letter table or the operations API. One full run of every command kind and query,
// invalid commands carrying secrets, then everything captured is searched for every value used.

const OPS_TOKEN = 'audit-ops-token-0123456789abcdef';
const CARD_TOKENS = ['4718610000000001', '5200000000000007'];
const CRYPTOGRAM = 'AgAAAAAABk4DWZ4C28yUQAAAAAA-audit-cryptogram';
const ACCOUNTS = ['026291800001191', '7766666351000', '00224412311300'];
const VPAS = ['success@upi', 'audit.person@okaxis'];
/** JWT-shaped: the provider's bearer tokens, whoever issued them. */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

interface Finding {
  where: string;
  secret: string;
  excerpt: string;
}

/** Every occurrence of every secret in every captured text. Exported shape kept small on purpose. */
function scan(
  sources: ReadonlyArray<{ where: string; text: string }>,
  secrets: readonly string[],
): Finding[] {
  const found: Finding[] = [];
  for (const { where, text } of sources) {
    for (const secret of secrets) {
      const at = text.indexOf(secret);
      if (at >= 0)
        found.push({ where, secret, excerpt: text.slice(Math.max(0, at - 80), at + secret.length + 40) });
    }
    const jwt = JWT.exec(text);
    if (jwt) found.push({ where, secret: 'a JWT-shaped bearer token', excerpt: jwt[0].slice(0, 40) });
  }
  return found;
}

describe('secrets audit: nothing sensitive leaves the service', () => {
  let stack: Stack;
  let url: string;
  const secrets: string[] = [];
  const opsAnswers: Array<{ where: string; text: string }> = [];
  let sdkToken = '';

  before(async () => {
    // Published outbox rows are kept (not deleted as they are published), so they are searched too.
    stack = await startStack({
      env: {
        OPS_OPERATORS: operatorsEnv([{ id: 'auditor', role: 'operator', token: OPS_TOKEN }]),
        OUTBOX_RETENTION_HOURS: '72',
      },
    });
    await stack.registerBeneficiary({ beneId: 'AUDIT1', bankAccount: ACCOUNTS[0], ifsc: 'YESB0000262' });
    url = (await stack.startService()).url;
  });
  after(async () => {
    await stack?.close();
  });

  it('runs every command kind and query, with secrets in each', async () => {
    const minted = (await stack.sandboxCall('POST', '/__sandbox/transfer-tokens', {
      transfer_id: 'aud_upi',
      vpa: VPAS[0],
    })) as { transfer_token: string };
    secrets.push(minted.transfer_token);
    const auth = await fetch(`${stack.sandbox.url}/payout/v1/authorize`, {
      method: 'POST',
      headers: { 'x-client-id': stack.sandbox.clientId, 'x-client-secret': stack.sandbox.clientSecret },
    });
    secrets.push(((await auth.json()) as { data: { token: string } }).data.token);

    const commands: Array<{ id: string; final: string; command: object }> = [
      {
        id: 'aud_std',
        final: 'SUCCESS',
        command: {
          type: 'payout.standard_transfer',
          requestId: 'req-aud-std',
          data: { transferId: 'aud_std', beneId: 'AUDIT1', amount: '11.00', transferMode: 'banktransfer' },
        },
      },
      {
        id: 'aud_dir_acct',
        final: 'SUCCESS',
        command: {
          type: 'payout.direct_transfer',
          requestId: 'req-aud-dir-1',
          data: {
            transferId: 'aud_dir_acct',
            amount: '12.00',
            beneDetails: {
              name: 'A Person',
              bankAccount: ACCOUNTS[0],
              ifsc: 'YESB0000262',
              phone: '9876543210',
            },
          },
        },
      },
      {
        id: 'aud_dir_vpa',
        final: 'SUCCESS',
        command: {
          type: 'payout.direct_transfer',
          requestId: 'req-aud-dir-2',
          data: {
            transferId: 'aud_dir_vpa',
            amount: '13.00',
            transferMode: 'upi',
            beneDetails: { name: 'A Person', vpa: VPAS[0] },
          },
        },
      },
      {
        id: 'aud_card',
        final: 'SUCCESS',
        command: {
          type: 'payout.card_payout',
          requestId: 'req-aud-card',
          data: {
            transferId: 'aud_card',
            amount: '14.00',
            cardToken: CARD_TOKENS[0],
            cryptogram: CRYPTOGRAM,
            cardType: 'CREDIT',
            networkType: 'VISA',
          },
        },
      },
      {
        id: 'aud_upi',
        final: 'SUCCESS',
        command: {
          type: 'payout.validated_upi_payout',
          requestId: 'req-aud-upi',
          data: { transferId: 'aud_upi', amount: '15.00', transferToken: minted.transfer_token },
        },
      },
      {
        id: 'aud_int',
        final: 'SUCCESS',
        command: {
          type: 'payout.internal_transfer',
          requestId: 'req-aud-int',
          data: { transferId: 'aud_int', amount: '16.00', rechargeAccount: 'RA0001' },
        },
      },
      {
        id: 'aud_wd',
        final: 'SUCCESS',
        command: {
          type: 'payout.self_withdrawal',
          requestId: 'req-aud-wd',
          data: { withdrawalId: 'aud_wd', amount: '17.00' },
        },
      },
      {
        id: 'aud_batch',
        final: 'COMPLETED',
        command: {
          type: 'payout.batch_transfer',
          requestId: 'req-aud-batch',
          data: {
            batchTransferId: 'aud_batch',
            batchFormat: 'BANK_ACCOUNT',
            entries: [
              {
                transferId: 'aud_b1',
                amount: '5.00',
                bankAccount: ACCOUNTS[0],
                ifsc: 'YESB0000262',
                name: 'B One',
                phone: '9876543210',
              },
              {
                transferId: 'aud_b2',
                amount: '6.00',
                bankAccount: ACCOUNTS[1],
                ifsc: 'YESB0000001',
                name: 'B Two',
                phone: '9876543211',
              },
            ],
          },
        },
      },
    ];
    for (const c of commands) await stack.send(c.command);
    // A conflict (same id, another request) and a duplicate: both re-emit, neither may leak.
    await stack.send({
      type: 'payout.card_payout',
      data: {
        transferId: 'aud_card',
        amount: '99.00',
        cardToken: CARD_TOKENS[1],
        cryptogram: CRYPTOGRAM,
        cardType: 'CREDIT',
      },
    });
    await stack.send(commands[1]!.command);

    // Invalid commands that carry secrets: dead letters.
    const invalid: Array<string | object> = [
      // schema-invalid card payout (no cardType), with card token and cryptogram
      {
        type: 'payout.card_payout',
        data: {
          transferId: 'aud_bad_card',
          amount: '1.00',
          cardToken: CARD_TOKENS[0],
          cryptogram: CRYPTOGRAM,
        },
      },
      // bad amount, with a transfer token
      {
        type: 'payout.validated_upi_payout',
        data: { transferId: 'aud_bad_upi', amount: '-5', transferToken: minted.transfer_token },
      },
      // unknown field, with an account number and a VPA
      {
        type: 'payout.direct_transfer',
        data: {
          transferId: 'aud_bad_dir',
          amount: '1.00',
          surprise: true,
          beneDetails: { name: 'X', bankAccount: ACCOUNTS[2], ifsc: 'YESB0000001', vpa: VPAS[1] },
        },
      },
      // secrets under snake_case keys of an unknown command type
      {
        type: 'payout.unheard_of',
        data: {
          card_token: CARD_TOKENS[1],
          transfer_token: minted.transfer_token,
          client_secret: stack.sandbox.clientSecret,
        },
      },
      // not JSON at all (cut short), secrets and personal data inside
      `{"type":"payout.card_payout","data":{"cardToken":"${CARD_TOKENS[0]}","cryptogram":"${CRYPTOGRAM}","bankAccount":"${ACCOUNTS[2]}","vpa":"${VPAS[1]}"`,
    ];
    for (const m of invalid) await stack.sendRaw(typeof m === 'string' ? m : JSON.stringify(m), 'aud-bad');

    await stack.query({
      type: 'query.sdk_token',
      queryId: 'aud_q_sdk',
      data: {
        appId: 'app-1',
        metadata: { vkycRequestId: 42 },
        authenticatedUser: { identifierType: 'userId', identifierValue: 7 },
      },
    });
    await stack.query({
      type: 'query.bene_id',
      queryId: 'aud_q_bene',
      data: { bankAccount: ACCOUNTS[0], ifsc: 'YESB0000262' },
    });
    await stack.query({ type: 'query.bene_history', queryId: 'aud_q_hist', data: { beneId: 'AUDIT1' } });

    for (const c of commands) await stack.waitForStatus(c.id, c.final, 30_000);
    await eventually(() => (stack.dlq.length >= invalid.length ? true : undefined), { what: 'dead letters' });
    await eventually(
      () => (stack.events.some((e) => e.type === 'payouts.command.conflict') ? true : undefined),
      {
        what: 'the conflict event',
      },
    );
    const sdk = await eventually(() => stack.replies.find((r) => r.queryId === 'aud_q_sdk'), {
      what: 'sdk reply',
    });
    assert.equal(sdk.ok, true, JSON.stringify(sdk.error));
    const token = sdk.data?.['accessToken'];
    sdkToken = typeof token === 'string' ? token : '';
    assert.ok(sdkToken.length > 10, 'the reply carries the SDK token (the one place allowed to)');
    secrets.push(sdkToken);
    await eventually(() => stack.replies.find((r) => r.queryId === 'aud_q_hist'), { what: 'history reply' });

    // The operations API: every lookup, and a few refusals.
    const ops = async (method: string, path: string) => {
      const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${OPS_TOKEN}` } });
      const text = await res.text();
      opsAnswers.push({ where: `ops ${method} ${path} (${res.status})`, text });
      return res.status;
    };
    for (const c of commands.filter((x) => x.id !== 'aud_batch')) {
      assert.equal(await ops('GET', `/ops/payouts/default/${c.id}`), 200, c.id);
      assert.equal(await ops('GET', `/ops/payouts/default/${c.id}/timeline`), 200, c.id);
    }
    assert.equal(await ops('GET', '/ops/batches/default/aud_batch'), 200);
    assert.equal(await ops('GET', '/ops/batches/default/aud_batch/timeline'), 200);
    // Search and export: every payout and every batch entry, as the console and a download show them.
    assert.equal(await ops('GET', '/ops/payouts?limit=500'), 200);
    assert.equal(await ops('GET', '/ops/payouts/export.csv'), 200);
    assert.equal(await ops('GET', '/ops/payouts/export.csv?batch=aud_batch'), 200);
    assert.equal(await ops('GET', '/ops/requires-attention'), 200);
    assert.equal(await ops('POST', '/ops/payouts/default/aud_card/recheck'), 409);
    assert.equal(await ops('GET', '/ops/payouts/default/aud_bad_card'), 404);
  });

  it('finds none of them in logs, events, the DLQ, metrics, the dead_letter table or ops answers', async () => {
    // Bearer tokens the service itself used (the sandbox verified them); each is a secret too.
    const verified = (stack.sandbox.world.tokens as unknown as { verified?: Map<string, unknown> }).verified;
    const bearer = [...(verified?.keys() ?? [])];
    assert.ok(bearer.length > 0, 'the service authorized with the provider');
    const all = [
      stack.sandbox.clientSecret,
      ...bearer,
      ...CARD_TOKENS,
      CRYPTOGRAM,
      ...secrets,
      ...ACCOUNTS,
      ...VPAS,
      OPS_TOKEN,
    ];
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const deadLetters = await stack.sql<{ row: unknown }>(`SELECT row_to_json(d) AS row FROM dead_letter d`);
    assert.ok(deadLetters.length >= 5, 'the dead letters are recorded');
    const outbox = await stack.sql<{ row: unknown }>(`SELECT row_to_json(o) AS row FROM outbox o`);
    // The durable history and the operators' records: kept for years, so nothing personal in them.
    const history = await stack.sql<{ row: unknown }>(
      `SELECT row_to_json(h) AS row FROM state_history h
       UNION ALL SELECT row_to_json(a) FROM operator_action a
       UNION ALL SELECT row_to_json(p) FROM payout_proposal p`,
    );
    assert.ok(history.length > 20, `the history was written (${history.length} rows)`);
    const sources = [
      ...stack.logLines.map((text, i) => ({ where: `log line ${i}`, text })),
      ...stack.events.map((e) => ({ where: `event ${e.id}`, text: JSON.stringify(e) })),
      ...stack.dlq.map((m, i) => ({
        where: `dlq message ${i}`,
        text: `${m.key?.toString() ?? ''} ${m.value?.toString() ?? ''} ${JSON.stringify(
          Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, v?.toString()])),
        )}`,
      })),
      { where: '/metrics', text: metrics },
      ...deadLetters.map((r, i) => ({ where: `dead_letter row ${i}`, text: JSON.stringify(r.row) })),
      ...outbox.map((r, i) => ({ where: `outbox row ${i}`, text: JSON.stringify(r.row) })),
      ...history.map((r, i) => ({ where: `history row ${i}`, text: JSON.stringify(r.row) })),
      ...opsAnswers,
      // Replies carry what was asked for; only the SDK token reply may carry the SDK token.
      ...stack.replies
        .filter((r) => r.queryId !== 'aud_q_sdk')
        .map((r) => ({ where: `reply ${r.queryId}`, text: JSON.stringify(r) })),
    ];
    assert.ok(stack.logLines.length > 30, `enough was logged to mean something (${stack.logLines.length})`);
    assert.ok(stack.events.length > 25 && stack.dlq.length >= 5 && opsAnswers.length >= 10);
    // Replies may name the account they were asked about: check them for secrets only.
    const personal = new Set([...ACCOUNTS, ...VPAS]);
    const findings = scan(sources, all).filter(
      (f) => !(f.where.startsWith('reply ') && personal.has(f.secret)),
    );
    assert.deepEqual(
      findings.map((f) => `${f.where}: ${f.secret.slice(0, 6)}… in …${f.excerpt}…`),
      [],
      'secrets or personal data found',
    );
  });

  it('the stored request holds no secret in clear (they are sealed in request_secrets)', async () => {
    const rows = await stack.sql<{ request: unknown; secrets: unknown }>(
      `SELECT request, request_secrets AS secrets FROM payout`,
    );
    const text = JSON.stringify(rows);
    for (const s of [...CARD_TOKENS, CRYPTOGRAM, ...secrets]) assert.ok(!text.includes(s), s.slice(0, 6));
  });

  it('every state change published is also one log line with transferId, requestId and version', () => {
    const lines = stack.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const changes = stack.events.filter((e) => e.type !== 'payouts.command.conflict');
    const ids = new Set<string>();
    const missing: string[] = [];
    for (const e of changes) {
      if (ids.has(e.id)) continue; // a duplicate command re-emits the same event
      ids.add(e.id);
      const requestId = e.data.requestId ?? (e.data.batchTransferId ? 'req-aud-batch' : undefined);
      const logged = lines.filter(
        (l) =>
          l['transferId'] === e.subject &&
          l['to'] === e.data.status &&
          l['version'] === e.data.version &&
          (requestId === undefined || l['requestId'] === requestId),
      );
      if (logged.length !== 1) missing.push(`${e.id} ${e.data.status}: ${logged.length} lines`);
    }
    assert.ok(ids.size > 25);
    assert.deepEqual(missing, []);
  });

  it('the scanner finds what it looks for (it can fail)', () => {
    const planted = scan(
      [
        { where: 'a', text: `x${CARD_TOKENS[0]}x` },
        { where: 'b', text: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGllbnQifQ.c2lnbmF0dXJlLXZhbHVl' },
        { where: 'c', text: 'nothing here XXXXXXXXXXX1191 su***@upi' },
      ],
      [CARD_TOKENS[0]!, ...ACCOUNTS, ...VPAS],
    );
    assert.deepEqual(
      planted.map((f) => f.where),
      ['a', 'b'],
    );
  });
});
