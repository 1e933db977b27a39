import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '#observability';
import { StubProvider } from './support/stub-provider.js';
import { testClient } from './support/test-client.js';
import { legacyStatusData, v2Transfer } from './support/case-types.js';

const LONG = '026291800001191';
const SHORT = '1234567';
const TEXT = `Credit to a/c ${LONG} failed; old a/c ${SHORT} closed`;

// The provider's free text may quote an account number: every consumer of a status answer (events,
// ledger rows, logs) gets it masked, because the client masks it where it parses the answer.
describe('provider free text is masked where the client parses it', () => {
  let stub: StubProvider;
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  const client = () =>
    testClient(stub, {}, { logger: createLogger({ level: 'debug', name: 'ft', destination: sink }) });
  const assertMasked = (shown: string) => {
    for (const leak of [LONG, SHORT]) assert.ok(!shown.includes(leak), `${leak} in ${shown}`);
    assert.match(shown, /XXXXXXXXXXX1191/);
  };

  before(async () => {
    stub = await StubProvider.start();
  });
  after(async () => stub.close());
  beforeEach(() => {
    stub.reset();
    lines.length = 0;
  });

  it('v2 status_description', async () => {
    stub.on('/payout/transfers', { body: { ...v2Transfer('FAILED'), status_description: TEXT } });
    const r = await client().call('getTransferStatusV2', { transferId: 'tr_v2_1' });
    assert.equal(r.outcome, 'failed');
    assert.equal(
      r.outcome === 'failed' ? r.data?.status_description : '',
      'Credit to a/c XXXXXXXXXXX1191 failed; old a/c XXX4567 closed',
    );
    assertMasked(JSON.stringify(r) + lines.join(''));
  });

  it('legacy transfer status reason', async () => {
    const data = legacyStatusData('failed');
    stub.on('/payout/v1.2/getTransferStatus', {
      body: {
        status: 'SUCCESS',
        subCode: '200',
        message: 'ok',
        data: { transfer: { ...data.transfer, reason: TEXT } },
      },
    });
    const r = await client().call('getTransferStatus', { transferId: 'tr_1' });
    assert.equal(r.outcome, 'failed');
    assert.match(r.outcome === 'failed' ? r.reason : '', /XXXXXXXXXXX1191/);
    assertMasked(JSON.stringify(r) + lines.join(''));
  });

  it('batch item reasons and the provider message', async () => {
    stub.on('/payout/v1/getBatchTransferStatus', {
      body: {
        status: 'SUCCESS',
        subCode: '200',
        message: `Data for a/c ${LONG}`,
        data: {
          referenceId: 1,
          rowCount: 1,
          transfers: [
            { transferId: 'b_1', amount: '1.00', status: 'FAILED', reason: TEXT, remarks: `to ${SHORT}` },
          ],
        },
      },
    });
    const r = await client().call('getBatchTransferStatus', { batchTransferId: 'batch_1' });
    assert.equal(r.outcome, 'success');
    assert.equal(
      r.outcome === 'success' ? r.data.transfers[0]?.reason : '',
      'Credit to a/c XXXXXXXXXXX1191 failed; old a/c XXX4567 closed',
    );
    assertMasked(JSON.stringify(r) + lines.join(''));
  });
});
