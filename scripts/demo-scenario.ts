/**
 * The demo's "commands in, events out": publishes one command of every kind and every query to
 * the running stack, then prints each resulting event as a table. Run by scripts/demo.sh.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { type PayoutEvent, type QueryReply, TOPICS, topicName } from '#contracts';

const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
const prefix = process.env['KAFKA_TOPIC_PREFIX'] ?? '';
const sandbox = `http://127.0.0.1:${process.env['SANDBOX_PORT'] ?? '8090'}`;
const service = `http://127.0.0.1:${process.env['HTTP_PORT'] ?? '3000'}`;
const run = `d${Date.now().toString(36)}`;
const id = (s: string) => `${run}_${s}`;
const TRACE_ID = randomBytes(16).toString('hex');
/** The beneficiary the demo registers on the v2 account, through the service (beneficiary.create). */
const V2_BENE = `${run}V2BENE`.replace(/_/g, '');
const TERMINAL = new Set(['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION', 'COMPLETED']);

async function json(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/** Sandbox set-up a real merchant does in the provider's dashboard: a registered beneficiary. */
async function prepareSandbox(): Promise<string> {
  const auth = (await json('POST', `${sandbox}/payout/v1/authorize`, undefined, {
    'x-client-id': process.env['PROVIDER_CLIENT_ID'] ?? 'sandbox_client_id',
    'x-client-secret': process.env['PROVIDER_CLIENT_SECRET'] ?? 'sandbox_client_secret',
  })) as { data: { token: string } };
  await json(
    'POST',
    `${sandbox}/payout/v1/addBeneficiary`,
    {
      beneId: `${run}BENE`.replace(/_/g, ''),
      name: 'Demo Beneficiary',
      email: 'demo@example.com',
      phone: '9876543210',
      address1: 'Demo Street 1',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
    },
    { authorization: `Bearer ${auth.data.token}` },
  );
  // Transfers to a beneficiary are allowed 30 minutes after it is added: move the sandbox clock.
  await json('POST', `${sandbox}/__sandbox/clock/advance`, { seconds: 31 * 60 });
  const token = (await json('POST', `${sandbox}/__sandbox/transfer-tokens`, {
    transfer_id: id('upi'),
    vpa: 'success@upi',
  })) as { transfer_token: string };
  return token.transfer_token;
}

function commands(transferToken: string): Array<{ key: string; value: object }> {
  const beneId = `${run}BENE`.replace(/_/g, '');
  const bank = { bankAccount: '026291800001191', ifsc: 'YESB0000262' };
  const list: object[] = [
    { type: 'payout.standard_transfer', data: { transferId: id('std'), beneId, amount: '1250.50' } },
    {
      type: 'payout.direct_transfer',
      data: {
        transferId: id('direct'),
        amount: '499.00',
        beneDetails: { name: 'Asha Rao', phone: '9876543210', ...bank },
      },
    },
    {
      type: 'payout.direct_transfer',
      data: {
        transferId: id('pending'),
        amount: '300.00',
        beneDetails: { name: 'Pending Then Paid', bankAccount: '00224412311300', ifsc: 'YESB0000001' },
      },
    },
    {
      type: 'payout.direct_transfer',
      data: {
        transferId: id('badacct'),
        amount: '75.00',
        beneDetails: { name: 'Wrong Account', bankAccount: '026291800001190', ifsc: 'YESB0000262' },
      },
    },
    { type: 'payout.validated_upi_payout', data: { transferId: id('upi'), amount: '99.99', transferToken } },
    {
      type: 'payout.card_payout',
      data: {
        transferId: id('card'),
        amount: '20.00',
        cardToken: '4718610000000001',
        cardType: 'CREDIT',
        networkType: 'VISA',
      },
    },
    {
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: id('batch'),
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          { transferId: id('b1'), amount: '10.00', name: 'Batch One', phone: '9876543210', ...bank },
          { transferId: id('b2'), amount: '12.00', name: 'Batch Two', phone: '9876543210', ...bank },
        ],
      },
    },
    {
      type: 'payout.internal_transfer',
      data: { transferId: id('internal'), amount: '5000.00', rechargeAccount: 'RA0001' },
    },
    {
      type: 'payout.self_withdrawal',
      data: { withdrawalId: id('withdraw'), amount: '100.00', remarks: 'demo' },
    },
    // The same kinds on the v2 account: Transfers V2 carries them (events say providerApi v2).
    {
      type: 'payout.standard_transfer',
      accountId: 'v2',
      data: { transferId: id('v2_std'), beneId: V2_BENE, amount: '2100.00' },
    },
    {
      type: 'payout.direct_transfer',
      accountId: 'v2',
      data: {
        transferId: id('v2_direct'),
        amount: '650.00',
        beneDetails: { name: 'Ravi Kumar', phone: '9876543210', ...bank },
      },
    },
    {
      type: 'payout.batch_transfer',
      accountId: 'v2',
      data: {
        batchTransferId: id('v2_batch'),
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          { transferId: id('v2_b1'), amount: '15.00', name: 'Batch Three', phone: '9876543210', ...bank },
          { transferId: id('v2_b2'), amount: '16.00', name: 'Batch Four', phone: '9876543210', ...bank },
        ],
      },
    },
  ];
  return list.map((c) => {
    const d = (c as { data: Record<string, string> }).data;
    return { key: d['transferId'] ?? d['batchTransferId'] ?? d['withdrawalId'] ?? '', value: c };
  });
}

/**
 * The provider's webhooks of this run, as the service kept them (ADR 0013): which payouts a
 * webhook settled directly (no status call), and what came of the others. Empty without the
 * `webhooks` role.
 */
async function webhookReport(): Promise<string[][]> {
  const url = process.env['DATABASE_URL'];
  if (!url) return [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      transfer_id: string;
      event: string;
      outcome: string | null;
      ms: number | null;
    }>(
      `SELECT transfer_id, event, outcome,
              round(extract(epoch FROM processed_at - received_at) * 1000)::int AS ms
         FROM provider_webhook WHERE transfer_id LIKE $1 ORDER BY id`,
      [`${run}%`],
    );
    return rows.map((r) => [
      r.transfer_id,
      r.event,
      r.outcome ?? '(open)',
      r.ms === null ? '' : String(r.ms),
    ]);
  } catch {
    return []; // an older database without the table: no webhooks to show
  } finally {
    await client.end();
  }
}

async function until<T>(get: () => T | undefined, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (let v = get(); Date.now() < end; v = get()) {
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  return get();
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const kafka = new Kafka({ clientId: 'payouts-demo', brokers, logLevel: logLevel.NOTHING });
  const events: PayoutEvent[] = [];
  const replies: QueryReply[] = [];
  const consumer = kafka.consumer({ groupId: `payouts-demo-${run}` });
  await consumer.connect();
  await consumer.subscribe({
    topics: [topicName(prefix, TOPICS.events), topicName(prefix, TOPICS.queryReplies)],
  });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      const v = JSON.parse(message.value?.toString() ?? '{}') as PayoutEvent & QueryReply;
      if (topic.endsWith(TOPICS.queryReplies)) {
        if (v.queryId.startsWith(run)) replies.push(v);
      } else if (v.subject.startsWith(run)) events.push(v);
    },
  });
  await new Promise((r) => setTimeout(r, 1500)); // let the group settle before producing

  const producer = kafka.producer();
  await producer.connect();
  // Beneficiary management through the service (issue 22): registered on the v2 account with
  // Beneficiary V2 (POST /payout/beneficiary), answered on the reply topic, masked.
  const createBene = {
    type: 'beneficiary.create',
    queryId: id('q_v2_bene_create'),
    accountId: 'v2',
    data: {
      beneId: V2_BENE,
      name: 'Meera Iyer',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
      email: 'meera@example.com',
      phone: '9876543210',
      address1: '4 Park Street',
    },
  };
  await producer.send({
    topic: topicName(prefix, TOPICS.queries),
    messages: [{ key: createBene.queryId, value: JSON.stringify(createBene) }],
  });
  const created = await until(() => replies.find((r) => r.queryId === createBene.queryId), 20_000);
  if (!created?.ok) throw new Error(`beneficiary.create on the v2 account: ${JSON.stringify(created)}`);
  // Registered beneficiaries take transfers 30 minutes after they are added: prepareSandbox
  // moves the sandbox clock past that for both.
  const transferToken = await prepareSandbox();
  const cmds = commands(transferToken);
  // The self withdrawal's answer is lost after the provider applied it (a sandbox fault, once): a
  // withdrawal has no status endpoint, so the service hands it to a person. It stays in the
  // console's queue for the four-eyes flow.
  await json('POST', `${sandbox}/__sandbox/faults`, {
    endpoint: 'selfWithdrawal',
    loseAnswer: 'reset',
    times: 1,
  });
  await producer.send({
    topic: topicName(prefix, TOPICS.commands),
    // The standard transfer carries a W3C traceparent: its trace is printed at the end.
    messages: cmds.map((c) => ({
      key: c.key,
      value: JSON.stringify(c.value),
      headers:
        c.key === id('std') ? { traceparent: `00-${TRACE_ID}-${randomBytes(8).toString('hex')}-01` } : {},
    })),
  });
  const beneId = `${run}BENE`.replace(/_/g, '');
  const queries = [
    {
      type: 'query.bene_id',
      queryId: id('q_beneid'),
      data: { bankAccount: '026291800001191', ifsc: 'YESB0000262' },
    },
    { type: 'query.bene_history', queryId: id('q_history'), data: { beneId } },
    { type: 'query.beneficiary', queryId: id('q_v2_bene'), accountId: 'v2', data: { beneId: V2_BENE } },
    {
      type: 'query.bene_id',
      queryId: id('q_v2_beneid'),
      accountId: 'v2',
      data: { bankAccount: '026291800001191', ifsc: 'YESB0000262' },
    },
    {
      type: 'query.sdk_token',
      queryId: id('q_sdk'),
      data: {
        appId: 'vkyc-demo',
        metadata: { vkycRequestId: 101 },
        authenticatedUser: { identifierType: 'userId', identifierValue: 42 },
      },
    },
  ];
  await producer.send({
    topic: topicName(prefix, TOPICS.queries),
    messages: queries.map((q) => ({ value: JSON.stringify(q) })),
  });
  console.log(
    `published ${cmds.length} commands and ${queries.length} queries (run ${run}); waiting for events...`,
  );

  const answered = () => queries.filter((q) => replies.some((r) => r.queryId === q.queryId)).length;
  const deadline = Date.now() + 90_000;
  const finished = () =>
    cmds.every((c) => events.some((e) => e.subject === c.key && TERMINAL.has(e.data.status))) &&
    answered() === queries.length;
  let advanced = false;
  while (!finished() && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    if (!advanced && Date.now() > deadline - 80_000) {
      // "Pending, then success" resolves on the sandbox clock: move it so the reconciler sees it.
      await json('POST', `${sandbox}/__sandbox/clock/advance`, { seconds: 120 });
      advanced = true;
    }
  }

  // v2 has no beneficiary history endpoint: the service answers from its own ledger. Asked once
  // the payout to that beneficiary has settled, so the answer shows it.
  const v2History = {
    type: 'query.bene_history',
    queryId: id('q_v2_history'),
    accountId: 'v2',
    data: { beneId: V2_BENE },
  };
  queries.push(v2History);
  await producer.send({
    topic: topicName(prefix, TOPICS.queries),
    messages: [{ key: v2History.queryId, value: JSON.stringify(v2History) }],
  });
  await until(() => replies.find((r) => r.queryId === v2History.queryId), 20_000);

  console.log('\nEvents (payouts.events), in arrival order:\n');
  console.log(
    table([
      ['id', 'account', 'api', 'type', 'status', 'version', 'reason'],
      ...events.map((e) => [
        e.subject,
        e.data.accountId,
        e.data.providerApi ?? '',
        e.type.replace('payouts.', ''),
        e.data.status,
        String(e.data.version),
        e.data.reason ?? '',
      ]),
    ]),
  );
  console.log('\nQuery replies (payouts.query-replies):\n');
  console.log(
    table([
      ['queryId', 'type', 'ok', 'data (secrets elided)'],
      ...replies.map((r) => [
        r.queryId,
        r.type,
        String(r.ok),
        r.ok
          ? JSON.stringify(r.data, (k, v: unknown) => (k === 'accessToken' ? '<sdk token>' : v)).slice(0, 80)
          : JSON.stringify(r.error),
      ]),
    ]),
  );
  const hooks = await webhookReport();
  if (hooks.length > 0) {
    console.log(
      "\nProvider webhooks (the sandbox's, verified and kept by the service; 'applied' settled the payout with no status call):\n",
    );
    console.log(table([['transferId', 'event', 'outcome', 'received -> done (ms)'], ...hooks]));
    const direct = hooks.filter((h) => h[2] === 'applied').map((h) => h[0]);
    console.log(`\nsettled by webhook: ${direct.length ? direct.join(', ') : 'none this run'}`);
  }
  // The last status each command reached: settled by the provider's answer, with a person, or
  // still in flight. REQUIRES_ATTENTION ends the demo's wait but is not counted as settled.
  const last = (key: string) => events.filter((e) => e.subject === key).at(-1)?.data.status;
  const missing = cmds.filter((c) => !TERMINAL.has(last(c.key) ?? '')).map((c) => c.key);
  const withPerson = cmds.filter((c) => last(c.key) === 'REQUIRES_ATTENTION').map((c) => c.key);
  const settled = cmds.length - missing.length - withPerson.length;
  console.log(
    `\n${settled}/${cmds.length} commands settled by the provider's answer` +
      (withPerson.length ? `; ${withPerson.length} waiting for a person (REQUIRES_ATTENTION)` : '') +
      `; ${answered()}/${queries.length} queries answered.`,
  );
  if (missing.length) console.log(`still in flight: ${missing.join(', ')}`);
  await showHistory(id('pending'));
  const approvalOk = await showApproval(producer, events, beneId);
  const fundsOk = await showFundsHold(producer, events);
  await showTrace(id('std'));
  const left = events.some((e) => e.subject === id('withdraw') && e.data.status === 'REQUIRES_ATTENTION')
    ? id('withdraw')
    : undefined;
  console.log(
    `\nWhere to look:\n  console    ${service}/console (sign in with an operator token printed above)` +
      `\n  metrics    ${service}/metrics\n  readiness  ${service}/health/ready`,
  );
  if (left)
    console.log(
      `\nLeft for you to settle in the console: ${left}, a self withdrawal in doubt (the provider's answer was` +
        ` lost after it moved the money, and there is no status endpoint to ask). Open` +
        ` ${service}/console#/payout/default/${left}, propose SUCCESS (with a UTR) as demo-operator, then approve` +
        ` it as demo-approver.`,
    );
  await producer.disconnect();
  await consumer.disconnect();
  if (missing.length || answered() < queries.length || !approvalOk || !fundsOk) process.exitCode = 1;
}

/**
 * Approval before sending (issue 30): with the demo's rule (APPROVAL_POLICIES: 10,000.00 or more on
 * the default account), a payout of 25,000.00 waits; demo-approver approves it through the operations
 * API (a configured operator's own token; an issued automation token may not decide), then it is
 * paid. Prints its events and where a person does the same in the console.
 */
async function showApproval(
  producer: {
    send: (r: { topic: string; messages: Array<{ key: string; value: string }> }) => Promise<unknown>;
  },
  events: readonly PayoutEvent[],
  beneId: string,
): Promise<boolean> {
  const approver = process.env['DEMO_OPS_APPROVER_TOKEN'];
  if (!process.env['APPROVAL_POLICIES'] || !approver) return true;
  const transferId = id('approval');
  const command = { type: 'payout.standard_transfer', data: { transferId, beneId, amount: '25000.00' } };
  await producer.send({
    topic: topicName(prefix, TOPICS.commands),
    messages: [{ key: transferId, value: JSON.stringify(command) }],
  });
  const status = (s: string) => () => events.find((e) => e.subject === transferId && e.data.status === s);
  if (!(await until(status('AWAITING_APPROVAL'), 20_000))) {
    console.log(`
approval: ${transferId} did not wait for approval (is APPROVAL_POLICIES set on the service?)`);
    return false;
  }
  const auth = { authorization: `Bearer ${approver}`, 'content-type': 'application/json' };
  const waiting = (await (await fetch(`${service}/ops/approvals`, { headers: auth })).json()) as {
    items: Array<{
      transferId: string;
      rules: Array<{ rule: string; detail: string }>;
      policyVersion: string;
    }>;
  };
  const hold = waiting.items.find((i) => i.transferId === transferId);
  console.log(
    `
Approval before sending: ${transferId} (25000.00) waits for a person, held by ` +
      `${hold?.rules.map((r) => `${r.rule} (${r.detail})`).join(', ') ?? '?'}, policy ${hold?.policyVersion ?? '?'}.` +
      `
  A person approves it in the console: ${service}/console#/approvals; here demo-approver approves it` +
      ` through the operations API (POST /ops/approvals/payouts/default/${transferId}/approve).`,
  );
  const res = await fetch(`${service}/ops/approvals/payouts/default/${transferId}/approve`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ note: 'demo: checked against the invoice' }),
  });
  console.log(`  approve answered ${res.status}: ${((await res.json()) as { state?: string }).state ?? ''}`);
  const paid = await until(status('SUCCESS'), 30_000);
  console.log(`
Its events:
`);
  console.log(
    table([
      ['version', 'type', 'status', 'reason'],
      ...events
        .filter((e) => e.subject === transferId)
        .map((e) => [String(e.data.version), e.type, e.data.status, e.data.reason ?? '']),
    ]),
  );
  // A second one stays held for a person: approving it in the console is the step the demo leaves you.
  const yours = id('approve_me');
  await producer.send({
    topic: topicName(prefix, TOPICS.commands),
    messages: [
      {
        key: yours,
        value: JSON.stringify({
          type: 'payout.standard_transfer',
          data: { transferId: yours, beneId, amount: '12000.00' },
        }),
      },
    ],
  });
  const held = await until(
    () => events.find((e) => e.subject === yours && e.data.status === 'AWAITING_APPROVAL'),
    20_000,
  );
  console.log(
    held
      ? `
Left for you to approve in the console: ${yours} (12000.00) waits at ${service}/console#/approvals;` +
          ` sign in with the approver token and approve it (or reject it: it ends REJECTED, never sent).`
      : `
approval: ${yours} did not wait for approval`,
  );
  return paid !== undefined && held !== undefined;
}

/**
 * Hold for funds (issue 32, ADR 0027): the `held` account (FUNDS_HOLD in demo.sh) has Rs. 1,000 at
 * the sandbox. A payout of 2,500.00 does not fit: it waits in HELD_FOR_FUNDS instead of being sent
 * and bounced. The merchant tops up through the sandbox's control call (`POST /__sandbox/fund`,
 * what a real merchant does at the bank); the provider's CREDIT_CONFIRMATION webhook makes the
 * balance due for reading, the new reading shows room, and the payout is sent and paid.
 */
async function showFundsHold(
  producer: {
    send: (r: { topic: string; messages: Array<{ key: string; value: string }> }) => Promise<unknown>;
  },
  events: readonly PayoutEvent[],
): Promise<boolean> {
  const clientId = process.env['DEMO_HELD_CLIENT_ID'];
  if (!process.env['FUNDS_HOLD'] || !clientId) return true;
  const merchant = `clientId=${encodeURIComponent(clientId)}`;
  const balance = async () =>
    ((await json('GET', `${sandbox}/__sandbox/balance?${merchant}`)) as { availableBalance?: string })
      .availableBalance ?? '?';
  const transferId = id('held');
  const command = {
    type: 'payout.direct_transfer',
    accountId: 'held',
    data: {
      transferId,
      amount: '2500.00',
      beneDetails: {
        name: 'Nisha Menon',
        phone: '9876543210',
        bankAccount: '026291800001191',
        ifsc: 'YESB0000262',
      },
    },
  };
  console.log(
    `
Hold for funds: account held has ${await balance()} available at the provider (FUNDS_HOLD: ${process.env['FUNDS_HOLD']}).` +
      `
  ${transferId} pays 2500.00 from it: it does not fit, so it waits instead of being sent and bounced.`,
  );
  await producer.send({
    topic: topicName(prefix, TOPICS.commands),
    messages: [{ key: transferId, value: JSON.stringify(command) }],
  });
  const status = (s: string) => () => events.find((e) => e.subject === transferId && e.data.status === s);
  const held = await until(status('HELD_FOR_FUNDS'), 30_000);
  if (!held) {
    console.log(`  ${transferId} was not held for funds (is FUNDS_HOLD set on the service?)`);
    return false;
  }
  // The sandbox's own record: no initiation of it reached the provider while it was held.
  const reached = (
    (await json('GET', `${sandbox}/__sandbox/received?${merchant}&transferId=${transferId}`)) as {
      initiations?: unknown[];
    }
  ).initiations?.length;
  console.log(
    `  held: HELD_FOR_FUNDS, reason ${held.data.reason ?? '?'}; initiations of it at the provider: ${reached ?? '?'}.`,
  );
  if (reached !== 0) return false;
  const funded = (await json('POST', `${sandbox}/__sandbox/fund?${merchant}`, { amount: '5000.00' })) as {
    balance?: string;
  };
  console.log(
    `  the merchant adds 5000.00 (POST /__sandbox/fund?${merchant}): balance ${funded.balance ?? '?'};` +
      ` the provider's CREDIT_CONFIRMATION webhook makes the balance due for reading.`,
  );
  const paid = await until(status('SUCCESS'), 45_000);
  console.log(
    `  ${paid ? 'released on the new reading, sent and paid' : 'not paid within 45 s'}; balance now ${await balance()}. Its events:
`,
  );
  console.log(
    table([
      ['version', 'type', 'status', 'reason'],
      ...events
        .filter((e) => e.subject === transferId)
        .map((e) => [String(e.data.version), e.type, e.data.status, e.data.reason ?? '']),
    ]),
  );
  return paid !== undefined;
}

/** The operations API's timeline of one payout: its durable history, with the cause of each change. */
async function showHistory(transferId: string): Promise<void> {
  const token = process.env['DEMO_OPS_OPERATOR_TOKEN'];
  if (!token) return;
  const res = await fetch(`${service}/ops/payouts/default/${transferId}/timeline`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) {
    console.log(`\noperations API: timeline of ${transferId} answered ${res.status}`);
    return;
  }
  const t = (await res.json()) as {
    history: Array<{
      at: string;
      from: string | null;
      to: string;
      version: number;
      cause: string;
      utr: string | null;
    }>;
  };
  console.log(`\nIts history, from the operations API (GET /ops/payouts/default/${transferId}/timeline):\n`);
  console.log(
    table([
      ['at', 'from', 'to', 'version', 'cause', 'utr'],
      ...t.history.map((h) => [h.at, h.from ?? '(created)', h.to, String(h.version), h.cause, h.utr ?? '']),
    ]),
  );
}

interface SpanLine {
  traceId: string;
  spanId: string;
  parentId?: string;
  name: string;
  kind: string;
  start: string;
  durationMs: number;
  service: string;
}

/**
 * One payout's trace, from the spans demo.sh has the service write as JSON lines
 * (OTEL_TRACES_EXPORTER=console, OTEL_TRACES_FILE): no collector needed.
 */
async function showTrace(transferId: string): Promise<void> {
  const file = process.env['OTEL_TRACES_FILE'];
  if (!file || process.env['OTEL_TRACES_EXPORTER'] !== 'console') return;
  // Spans are exported in batches (every few seconds): wait for this trace's to arrive.
  let spans: SpanLine[] = [];
  for (let i = 0; i < 20; i++) {
    const text = await readFile(file, 'utf8').catch(() => '');
    spans = text
      .split('\n')
      .filter((l) => l.includes(TRACE_ID))
      .map((l) => JSON.parse(l) as SpanLine)
      .sort((a, b) => a.start.localeCompare(b.start));
    if (spans.some((s) => s.name.includes('submit')) && spans.some((s) => s.kind === 'producer')) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (spans.length === 0) {
    console.log(`\nno spans of trace ${TRACE_ID} in ${file}`);
    return;
  }
  // In time order, each span indented by its depth in the trace (a parent before its children).
  const byId = new Map(spans.map((x) => [x.spanId, x]));
  const depthOf = (x: SpanLine): number => {
    const parent = x.parentId ? byId.get(x.parentId) : undefined;
    return parent ? 1 + depthOf(parent) : 0;
  };
  const ordered = spans
    .map((x) => ({ s: x, depth: depthOf(x) }))
    .sort((a, b) => a.s.start.localeCompare(b.s.start) || a.depth - b.depth);
  const t0 = Date.parse(spans[0]?.start ?? '');
  console.log(`\nThe trace of ${transferId} (${TRACE_ID}, the command's traceparent), from ${file}:\n`);
  console.log(
    table([
      ['+ms', 'span', 'kind', 'ms'],
      ...ordered.map(({ s, depth }) => [
        String(Date.parse(s.start) - t0),
        `${'  '.repeat(depth)}${s.name}`,
        s.kind,
        s.durationMs.toFixed(1),
      ]),
    ]),
  );
}

main().catch((e: unknown) => {
  console.error('demo scenario failed:', e instanceof Error ? e.message : e);
  process.exit(1);
});
