import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  batchTransferV2Outcomes,
  connectorsOf,
  createProviderClient,
  getBatchTransferStatusV2Outcomes,
  transferV2Outcomes,
  type Connectors,
  type ProviderClient,
  type V2OutcomeTable,
} from '#provider-client/testing';
import { startSandbox, TEST_ACCOUNTS, V2_TABLES, type RunningSandbox } from '#sandbox';
import { findV2Row } from '#provider-client/testing';
import { btv2, tv2, tv2Inline } from './support/request-fixtures.js';
import { StubProvider } from './support/stub-provider.js';
import { testClient, testOptions } from './support/test-client.js';
import { v2Transfer } from './support/endpoint-cases.js';

const SUCCESS = TEST_ACCOUNTS.find((a) => a.outcome === 'success')!;

describe('Transfers V2 on the wire', () => {
  let stub: StubProvider;
  let client: ProviderClient;
  before(async () => {
    stub = await StubProvider.start();
    client = testClient(stub);
  });
  after(async () => {
    await client.close();
    await stub.close();
  });
  beforeEach(() => stub.reset());

  it('writes the amount as a JSON number from its decimal text, never through a float', async () => {
    stub.on('/payout/transfers', { body: v2Transfer('RECEIVED') });
    await client.call('transferV2', { ...tv2Inline, amount: '1234567890123.45' });
    await client.call('transferV2', { ...tv2, transferId: 'tr_v2_9', amount: '100.30' });
    const [a, b] = stub.calls('/payout/transfers').map((c) => c.body);
    assert.match(a!, /"transfer_amount":1234567890123\.45[,}]/);
    assert.match(b!, /"transfer_amount":100\.30[,}]/);
  });

  it('names a registered beneficiary by id, or a direct one inline', async () => {
    stub.on('/payout/transfers', { body: v2Transfer('RECEIVED') });
    await client.call('transferV2', tv2);
    await client.call('transferV2', {
      ...tv2Inline,
      transferMode: 'upi',
      beneficiary: { name: 'Asha Rao', vpa: 'asha@upi' },
    });
    const [std, upi] = stub
      .calls('/payout/transfers')
      .map((c) => JSON.parse(c.body) as Record<string, unknown>);
    assert.deepEqual(std!['beneficiary_details'], { beneficiary_id: 'bene1' });
    assert.equal(std!['transfer_mode'], 'imps');
    assert.equal(std!['transfer_remarks'], 'rent');
    assert.deepEqual(upi!['beneficiary_details'], {
      beneficiary_name: 'Asha Rao',
      beneficiary_instrument_details: { vpa: 'asha@upi' },
    });
    assert.equal(upi!['transfer_mode'], 'upi');
  });

  it('a 200 whose transfer is already FAILED or REJECTED is a failure, with the status code kept', async () => {
    for (const status of ['FAILED', 'REJECTED']) {
      stub.on('/payout/transfers', { body: v2Transfer(status, 'BENE_BLACKLISTED') });
      const r = await client.call('transferV2', tv2);
      assert.equal(r.outcome, 'failed', status);
      assert.equal(r.diagnostics.code, 'BENE_BLACKLISTED');
    }
  });

  it('409 transfer_id_already_exists is a duplicate (look it up), never a refusal', async () => {
    stub.on('/payout/transfers', {
      status: 409,
      body: {
        type: 'invalid_request_error',
        code: 'transfer_id_already_exists',
        message: 'transfer_id already exists',
      },
    });
    const r = await client.call('transferV2', tv2);
    assert.equal(r.outcome === 'failed' ? r.kind : r.outcome, 'duplicate');
  });

  // No 422 is documented for POST /payout/transfers or /transfers/batch, and on the same path a 422
  // (failed_to_process_request) means "already used to initiate a payout": the payout may exist, so
  // it is checked, never published FAILED on that answer.
  it('an undocumented 422 on a v2 transfer or batch is unclear (checked first), never a refusal', async () => {
    const body = { type: 'invalid_request_error', code: 'failed_to_process_request', message: 'x' };
    stub.on('/payout/transfers', { status: 422, body });
    stub.on('/payout/transfers/batch', { status: 422, body });
    assert.equal((await client.call('transferV2', tv2)).outcome, 'unknown');
    assert.equal((await client.call('batchTransferV2', btv2)).outcome, 'unknown');
  });

  it('a 5xx is unknown and never sent twice by the client', async () => {
    for (const status of [500, 502, 503, 504]) {
      stub.reset();
      stub.on('/payout/transfers', {
        status,
        body: { type: 'api_error', code: 'internal_server_error', message: 'x' },
      });
      const r = await client.call('transferV2', tv2);
      assert.equal(r.outcome, 'unknown', String(status));
      assert.equal(stub.count('/payout/transfers'), 1);
    }
  });

  it('an account number the provider echoes is cut from the diagnostics', async () => {
    stub.on('/payout/transfers', {
      status: 400,
      body: {
        type: 'invalid_request_error',
        code: 'beneficiary_details.beneficiary_instrument_details.bank_account_number_invalid',
        message: `account ${tv2Inline.beneficiary.bankAccount} is not valid`,
      },
    });
    const r = await client.call('transferV2', tv2Inline);
    assert.equal(r.outcome, 'failed');
    assert.ok(!JSON.stringify(r).includes(tv2Inline.beneficiary.bankAccount), JSON.stringify(r));
  });

  it('a batch sends its entries as transfers and reads the batch status entries', async () => {
    stub.on('/payout/transfers/batch', (req) =>
      req.method === 'POST'
        ? { body: { batch_transfer_id: 'batch_v2_1', cf_batch_transfer_id: 555, status: 'RECEIVED' } }
        : {
            body: {
              batch_transfer_id: 'batch_v2_1',
              cf_batch_transfer_id: '555',
              status: 'PENDING',
              transfers: [
                { ...v2Transfer('SUCCESS', 'COMPLETED'), transfer_id: 'tr_v2_2', transfer_utr: 'UTR1' },
                { ...v2Transfer('REJECTED', 'INVALID_MODE_FOR_PYID'), transfer_id: 'tr_v2_3' },
                { not: 'a transfer' },
              ],
            },
          },
    );
    const sent = await client.call('batchTransferV2', btv2);
    assert.equal(sent.outcome, 'pending');
    assert.equal(sent.outcome === 'pending' ? sent.data?.cf_batch_transfer_id : undefined, '555');
    const body = JSON.parse(stub.calls('/payout/transfers/batch')[0]!.body) as { transfers: unknown[] };
    assert.equal(body.transfers.length, 2);
    assert.match(stub.calls('/payout/transfers/batch')[0]!.body, /"transfer_amount":1234567890123\.45[,}]/);
    const st = await client.call('getBatchTransferStatusV2', { batchTransferId: 'batch_v2_1' });
    assert.equal(st.outcome, 'success');
    assert.deepEqual(
      st.outcome === 'success' ? st.data.transfers.map((t) => [t.transfer_id, t.status]) : [],
      [
        ['tr_v2_2', 'SUCCESS'],
        ['tr_v2_3', 'REJECTED'],
      ],
    );
    assert.equal(stub.calls('/payout/transfers/batch')[1]?.query.get('batch_transfer_id'), 'batch_v2_1');
  });
});

/** Every row the sandbox can answer is known to the client's table (or its catch-all for that HTTP status). */
describe('client tables cover the sandbox v2 tables', () => {
  const pairs: readonly [string, V2OutcomeTable][] = [
    ['transferV2', transferV2Outcomes],
    ['batchTransferV2', batchTransferV2Outcomes],
    ['getBatchTransferStatusV2', getBatchTransferStatusV2Outcomes],
  ];
  for (const [id, table] of pairs) {
    it(id, () => {
      for (const [key, row] of Object.entries(V2_TABLES[id]!)) {
        const code = row.code.replace('[i]', '[0]');
        const found = findV2Row(table, row.http, code, row.message);
        const dup = /already_exists/.test(row.code);
        assert.ok(found || dup, `${id}.${key} (${row.http} ${row.code}) has no row in the client table`);
        // A refusal the client reads must never be a failure of a transfer the provider holds.
        if (dup) assert.equal(found?.kind ?? 'duplicate', 'duplicate', key);
      }
    });
  }
});

describe('the v2 connector against the sandbox over HTTP', () => {
  let sb: RunningSandbox;
  let client: ProviderClient;
  let connectors: Connectors;
  let n = 0;
  const id = (p: string) => `${p}${Date.now().toString(36)}${(n += 1)}`;
  const opts = {};
  before(async () => {
    sb = await startSandbox({ port: 0 });
    const base = testOptions({ url: sb.url } as StubProvider);
    client = createProviderClient({
      ...base,
      accounts: [{ accountId: 'acc-1', clientId: sb.clientId, clientSecret: sb.clientSecret }],
    });
    connectors = connectorsOf(client);
  });
  after(async () => {
    await client.close();
    await sb.close();
  });
  const ctl = async (path: string, body: unknown) => {
    const r = await fetch(`${sb.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.ok(r.ok, `${path} ${r.status}`);
  };
  const direct = (transferId: string) =>
    connectors.v2.submitPayout(
      {
        kind: 'direct_transfer',
        transferId,
        amount: '10.50',
        request: {
          transferId,
          amount: '10.50',
          beneDetails: { name: 'Test Payee', bankAccount: SUCCESS.bankAccount, ifsc: SUCCESS.ifsc },
        },
      },
      opts,
    );

  it('a direct transfer is accepted, found by transfer_id, and a repeat is a duplicate', async () => {
    const t = id('D');
    const first = await direct(t);
    assert.ok(['pending', 'success'].includes(first.result.outcome), JSON.stringify(first.result));
    assert.ok(first.svcTransferId, 'cf_transfer_id read');
    const again = await direct(t);
    assert.equal(again.result.outcome === 'failed' ? again.result.kind : again.result.outcome, 'duplicate');
    const check = await connectors.v2.checkPayout('direct_transfer', t, opts);
    assert.equal(check.found, true);
    assert.ok(
      check.found && ['PENDING', 'SUCCESS'].includes(check.answer.status ?? ''),
      JSON.stringify(check),
    );
  });

  it('a standard transfer to an unknown beneficiary is refused (404), nothing found after', async () => {
    const t = id('S');
    const r = await connectors.v2.submitPayout(
      {
        kind: 'standard_transfer',
        transferId: t,
        amount: '5.00',
        request: { transferId: t, beneId: 'NOPE1', amount: '5.00' },
      },
      opts,
    );
    assert.equal(r.result.outcome, 'failed');
    assert.equal(r.result.outcome === 'failed' ? r.result.kind : '', 'rejected');
    assert.equal(r.result.diagnostics.code, 'beneficiary_not_found');
    const check = await connectors.v2.checkPayout('standard_transfer', t, opts);
    assert.equal(check.found ? 'found' : check.result.outcome === 'failed' && check.result.kind, 'not-found');
  });

  it('a 500 from the provider is unknown: sent once, then found by status', async () => {
    await ctl('/__sandbox/faults', { endpoint: 'transferV2', applyThenStatus: 500, times: 1 });
    const t = id('F');
    const r = await direct(t);
    assert.equal(r.result.outcome, 'unknown');
    assert.equal(r.result.diagnostics.attempts, 1);
    const check = await connectors.v2.checkPayout('direct_transfer', t, opts);
    assert.equal(check.found, true, 'the transfer the 500 hid exists');
  });

  it('a batch is accepted, a repeat is a duplicate, its entries are read by status', async () => {
    const b = id('B');
    const entries = [
      {
        transferId: id('E'),
        amount: '10.00',
        bankAccount: SUCCESS.bankAccount,
        ifsc: SUCCESS.ifsc,
        name: 'Test Payee',
      },
      {
        transferId: id('E'),
        amount: '11.00',
        bankAccount: SUCCESS.bankAccount,
        ifsc: SUCCESS.ifsc,
        name: 'Test Payee',
      },
    ];
    const sent = await connectors.v2.submitBatch(
      { batchTransferId: b, batchFormat: 'BANK_ACCOUNT', entries },
      opts,
    );
    assert.equal(sent.result.outcome, 'pending', JSON.stringify(sent.result));
    assert.ok(sent.referenceId);
    const again = await connectors.v2.submitBatch(
      { batchTransferId: b, batchFormat: 'BANK_ACCOUNT', entries },
      opts,
    );
    assert.equal(again.result.outcome === 'failed' ? again.result.kind : again.result.outcome, 'duplicate');
    await ctl('/__sandbox/clock/advance', { ms: 10 * 60_000 });
    const check = await connectors.v2.checkBatch(b, opts);
    assert.ok(check.found, JSON.stringify(check));
    assert.deepEqual(
      check.found ? check.entries.map((e) => e.transferId).sort() : [],
      entries.map((e) => e.transferId).sort(),
    );
    const none = await connectors.v2.checkBatch(id('NOB'), opts);
    assert.equal(!none.found && none.result.outcome === 'failed' ? none.result.kind : 'found', 'not-found');
  });

  it('a wallet mode is refused before sending on v2', async () => {
    const t = id('W');
    const r = await connectors.v2.submitPayout(
      {
        kind: 'standard_transfer',
        transferId: t,
        amount: '5.00',
        request: { transferId: t, beneId: 'B1', amount: '5.00', transferMode: 'wallet_a' },
      },
      opts,
    );
    assert.equal(r.result.outcome, 'failed');
    assert.equal(r.result.diagnostics.sent, false);
  });
});
