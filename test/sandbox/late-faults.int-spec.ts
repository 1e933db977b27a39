import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, SUCCESS_ACCOUNT, type Res } from './harness.js';
import { signatureValid, WebhookReceiver } from './webhook-receiver.js';

interface Outcome {
  transferId: string;
  endpoint: string;
  initiations: number;
  accepted: number;
  status: string;
  reached: string[];
  paid: number;
  returned: boolean;
  failed: boolean;
}

interface Outcomes {
  pendingLateApplies: { endpoint: string; id: string; at: number; receivedAt: number }[];
  outcomes: Outcome[];
}

const MIN = 60_000;

/**
 * The faults of issue 21: a call applied later (tens of minutes of sandbox clock), a status
 * endpoint that lags, a re-send refused with something other than "already exists", and a
 * hostile webhook sender; and the per-id record a run judges the service against.
 */
describe('sandbox faults: late apply, status lag, refused re-send, hostile webhooks', () => {
  let h: Harness;
  let rx: WebhookReceiver;
  before(async () => {
    rx = await WebhookReceiver.start();
    h = await Harness.start({ pendingDelayMs: 60_000 });
  });
  after(async () => {
    await h.close();
    await rx.close();
  });
  beforeEach(async () => {
    await h.fresh();
    rx.clear();
  });

  const outcomes = async (transferId?: string): Promise<Outcomes> =>
    (await h.ctl('GET', `/__sandbox/outcomes${transferId ? `?transferId=${transferId}` : ''}`))
      .body as unknown as Outcomes;
  const outcome = async (transferId: string): Promise<Outcome | undefined> =>
    (await outcomes(transferId)).outcomes[0];
  const legacyStatus = (transferId: string): Promise<Res> =>
    h.get('/payout/v1.2/getTransferStatus', { transferId });
  const statusOf = (r: Res): unknown =>
    (r.body.data as { transfer?: { status?: string } } | undefined)?.transfer?.status;
  const balance = async (): Promise<string> =>
    String((await h.ctl('GET', '/__sandbox/balance')).body.balance);
  /** Sends and expects no answer (hang or reset) within a short real-time wait. */
  const unanswered = (p: Promise<unknown>): Promise<void> => assert.rejects(p);
  const internal = (transferId: string, signal?: AbortSignal): Promise<Res> =>
    signal
      ? fetch(`${h.sb.url}/payout/v1/internalTransfer`, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ transferId, amount: '5.00', rechargeAccount: 'RA0001' }),
          signal,
        }).then(async (r) => ({
          http: r.status,
          body: (await r.json()) as Record<string, unknown>,
          headers: r.headers,
        }))
      : h.post('/payout/v1/internalTransfer', { transferId, amount: '5.00', rechargeAccount: 'RA0001' });
  const v2Send = async (transferId: string): Promise<Res> =>
    h.v2('POST', '/payout/transfers', {
      transfer_id: transferId,
      transfer_token: await h.transferToken(transferId),
      transfer_amount: '1.00',
      transfer_mode: 'upi',
    });

  describe('applyLaterMs', () => {
    it('no answer; unknown to the status endpoint until the sandbox clock reaches it (20 min), then applied', async () => {
      const transferId = h.id();
      await h.fault({ endpoint: 'directTransfer', applyLaterMs: 20 * MIN, times: 1 });
      await unanswered(
        fetch(`${h.sb.url}/payout/v1.2/directTransfer`, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            transferId,
            amount: '10.00',
            beneDetails: { name: 'Test Payee', phone: '9876543210', ...SUCCESS_ACCOUNT },
          }),
          signal: AbortSignal.timeout(150),
        }),
      );
      assert.equal((await legacyStatus(transferId)).http, 404);
      const held = await outcomes(transferId);
      assert.equal(held.outcomes.length, 0, 'nothing received yet');
      assert.equal(held.pendingLateApplies.length, 1);
      assert.equal(held.pendingLateApplies[0]?.endpoint, 'directTransfer');
      await h.advance(19 * MIN);
      await h.authorize(); // the bearer token lives 6 minutes
      assert.equal((await legacyStatus(transferId)).http, 404, 'still not applied a minute early');
      await h.advance(MIN);
      assert.equal(statusOf(await legacyStatus(transferId)), 'SUCCESS');
      const after = await outcomes(transferId);
      assert.deepEqual(after.pendingLateApplies, []);
      assert.equal(after.outcomes[0]?.accepted, 1);
      assert.equal(after.outcomes[0]?.paid, 1);
    });

    it('deduplicated endpoint: a re-send applied first wins, the late apply is refused as a repeat (paid once)', async () => {
      const transferId = h.id();
      const before = await balance();
      await h.fault({
        endpoint: 'directTransfer',
        applyLaterMs: 5 * MIN,
        applyLaterAnswer: 'reset',
        times: 1,
      });
      await unanswered(h.direct(SUCCESS_ACCOUNT, { transferId }));
      assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId })).body.subCode, '200');
      await h.advance(5 * MIN);
      const o = await outcome(transferId);
      assert.deepEqual(
        { initiations: o?.initiations, accepted: o?.accepted, paid: o?.paid },
        { initiations: 2, accepted: 1, paid: 1 },
      );
      assert.equal(Number(before) - Number(await balance()), 10);
    });

    it('deduplicated endpoint: the late apply applied first, the re-send is "already exists"', async () => {
      const transferId = h.id();
      await h.fault({ endpoint: 'requestTransfer', applyLaterMs: MIN, applyLaterAnswer: 503, times: 1 });
      const beneId = await h.addBene(SUCCESS_ACCOUNT);
      const body = { beneId, transferId, amount: '3.00' };
      assert.equal((await h.post('/payout/v1.2/requestTransfer', body)).http, 503);
      await h.advance(MIN);
      const again = await h.post('/payout/v1.2/requestTransfer', body);
      assert.equal(again.body.message, 'Transfer Id already exists');
      assert.equal((await outcome(transferId))?.accepted, 1);
    });

    it('internal transfer (not deduplicated): a re-send and the late apply both pay', async () => {
      const transferId = h.id('I');
      const before = await balance();
      await h.fault({
        endpoint: 'internalTransfer',
        applyLaterMs: 30 * MIN,
        applyLaterAnswer: 503,
        times: 1,
      });
      assert.equal((await internal(transferId)).http, 503);
      assert.equal((await internal(transferId)).body.subCode, '200');
      await h.advance(30 * MIN);
      const o = await outcome(transferId);
      assert.deepEqual({ accepted: o?.accepted, paid: o?.paid }, { accepted: 2, paid: 2 });
      assert.equal(Number(before) - Number(await balance()), 10, 'paid twice');
    });

    it('self withdrawal (not deduplicated): the late apply pays again', async () => {
      const withdrawalId = h.id('W');
      await h.fault({ endpoint: 'selfWithdrawal', applyLaterMs: MIN, applyLaterAnswer: 'reset', times: 1 });
      await unanswered(h.post('/payout/v1/selfWithdrawal', { withdrawalId, amount: '2.00' }));
      assert.equal((await h.post('/payout/v1/selfWithdrawal', { withdrawalId, amount: '2.00' })).http, 200);
      await h.advance(MIN);
      assert.equal((await outcome(withdrawalId))?.paid, 2);
    });

    it('v2 and batches: the second of the two to arrive is a repeat', async () => {
      const v2Id = h.id('V');
      const token = await h.transferToken(v2Id);
      const send = () =>
        h.v2('POST', '/payout/transfers', {
          transfer_id: v2Id,
          transfer_token: token,
          transfer_amount: '1.00',
          transfer_mode: 'upi',
        });
      await h.fault({
        endpoint: 'processValidatedPayout',
        applyLaterMs: MIN,
        applyLaterAnswer: 'reset',
        times: 1,
      });
      await unanswered(send());
      assert.equal((await h.v2('GET', `/payout/transfers?transfer_id=${v2Id}`)).http, 404);
      assert.equal((await send()).body.status, 'SUCCESS');
      await h.advance(MIN);
      assert.deepEqual((await outcome(v2Id))?.accepted, 1);

      const batchTransferId = h.id('B');
      const entryId = h.id();
      const batch = {
        batchTransferId,
        batchFormat: 'BANK_ACCOUNT',
        batch: [
          {
            transferId: entryId,
            amount: '2.00',
            ...SUCCESS_ACCOUNT,
            name: 'Batch Payee',
            phone: '9876543210',
          },
        ],
      };
      await h.fault({ endpoint: 'requestBatchTransfer', applyLaterMs: MIN, applyLaterAnswer: 502, times: 1 });
      assert.equal((await h.post('/payout/v1/requestBatchTransfer', batch)).http, 502);
      assert.equal((await h.get('/payout/v1/getBatchTransferStatus', { batchTransferId })).http, 404);
      assert.equal((await h.post('/payout/v1/requestBatchTransfer', batch)).body.subCode, '200');
      await h.advance(MIN);
      const log = (await h.ctl('GET', `/__sandbox/received?transferId=${batchTransferId}`)).body;
      assert.equal(log.accepted, 1);
      assert.equal((await outcome(entryId))?.paid, 1);
    });

    it('a reset drops what is held', async () => {
      await h.fault({ endpoint: 'internalTransfer', applyLaterMs: MIN, applyLaterAnswer: 503, times: 1 });
      await internal(h.id('I'));
      await h.fresh();
      await h.advance(MIN);
      const o = await outcomes();
      assert.deepEqual([o.pendingLateApplies, o.outcomes], [[], []]);
    });
  });

  describe('statusLagMs', () => {
    it('on an initiation: the applied transfer is "not found" (v1 and v1.2) until the lag has passed', async () => {
      const transferId = h.id();
      await h.fault({ endpoint: 'directTransfer', loseAnswer: 'reset', statusLagMs: 10 * MIN, times: 1 });
      await unanswered(h.direct(SUCCESS_ACCOUNT, { transferId }));
      const lagging = await legacyStatus(transferId);
      assert.deepEqual(
        [lagging.http, lagging.body.message],
        [404, 'TransferId is invalid or does not exist'],
      );
      assert.equal((await h.get('/payout/v1/getTransferStatus', { transferId })).http, 404);
      assert.equal((await outcome(transferId))?.paid, 1, 'the provider has paid it');
      await h.advance(10 * MIN);
      await h.authorize();
      assert.equal(statusOf(await legacyStatus(transferId)), 'SUCCESS');
    });

    it('internal transfers and v2 too', async () => {
      const internalId = h.id('I');
      await h.fault({ endpoint: 'internalTransfer', statusLagMs: MIN, times: 1 });
      assert.equal((await internal(internalId)).body.subCode, '200');
      assert.equal((await legacyStatus(internalId)).http, 404);
      const v2Id = h.id('V');
      await h.fault({ endpoint: 'processValidatedPayout', statusLagMs: MIN, times: 1 });
      assert.equal((await v2Send(v2Id)).body.status, 'SUCCESS');
      const v2 = await h.v2('GET', `/payout/transfers?transfer_id=${v2Id}`);
      assert.deepEqual([v2.http, v2.body.code], [404, 'transfer_id_not_found']);
      await h.advance(MIN);
      assert.equal(statusOf(await legacyStatus(internalId)), 'SUCCESS');
      assert.equal((await h.v2('GET', `/payout/transfers?transfer_id=${v2Id}`)).body.status, 'SUCCESS');
    });

    it('on a status endpoint: that call does not know a transfer applied less than the lag ago', async () => {
      const transferId = h.id();
      assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId })).body.subCode, '200');
      await h.fault({ endpoint: 'getTransferStatus', statusLagMs: MIN, times: 1 });
      assert.equal((await legacyStatus(transferId)).http, 404);
      assert.equal(statusOf(await legacyStatus(transferId)), 'SUCCESS');
    });

    it('on a batch: the batch and its entries are "not found" until the lag has passed', async () => {
      const batchTransferId = h.id('B');
      const entryId = h.id();
      await h.fault({ endpoint: 'requestBatchTransfer', statusLagMs: MIN, times: 1 });
      const res = await h.post('/payout/v1/requestBatchTransfer', {
        batchTransferId,
        batchFormat: 'BANK_ACCOUNT',
        batch: [
          {
            transferId: entryId,
            amount: '2.00',
            ...SUCCESS_ACCOUNT,
            name: 'Batch Payee',
            phone: '9876543210',
          },
        ],
      });
      assert.equal(res.body.subCode, '200');
      await h.advance(10_000);
      assert.equal((await h.get('/payout/v1/getBatchTransferStatus', { batchTransferId })).http, 404);
      assert.equal((await legacyStatus(entryId)).http, 404);
      await h.advance(MIN);
      assert.equal(
        (await h.get('/payout/v1/getBatchTransferStatus', { batchTransferId })).body.subCode,
        '200',
      );
      assert.equal(statusOf(await legacyStatus(entryId)), 'SUCCESS');
    });
  });

  describe('refuseResend', () => {
    it("a re-send of a known id gets each refusal in the endpoint's own shape; nothing is applied", async () => {
      const transferId = h.id();
      assert.equal((await h.direct(SUCCESS_ACCOUNT, { transferId })).body.subCode, '200');
      const before = await balance();
      const expected: [string, number, string][] = [
        ['insufficient_balance', 412, 'Insufficient balance in account'],
        ['duplicate', 400, 'Duplicate transferId'],
        ['not_found', 404, 'Beneficiary does not exist'],
      ];
      for (const [refuseResend, http, message] of expected) {
        await h.fault({ endpoint: 'directTransfer', refuseResend, times: 1 });
        const r = await h.direct(SUCCESS_ACCOUNT, { transferId });
        assert.deepEqual([r.http, r.body.status, r.body.message], [http, 'ERROR', message], refuseResend);
      }
      assert.equal(await balance(), before);
      const o = await outcome(transferId);
      assert.deepEqual(
        { initiations: o?.initiations, accepted: o?.accepted },
        { initiations: 4, accepted: 1 },
      );
      // The same fault on a new id applies it normally (and marks it).
      await h.fault({ endpoint: 'requestTransfer', refuseResend: 'insufficient_balance', times: 1 });
      const beneId = await h.addBene(SUCCESS_ACCOUNT);
      const body = { beneId, transferId: h.id(), amount: '3.00' };
      assert.equal((await h.post('/payout/v1.2/requestTransfer', body)).body.subCode, '200');
      const again = await h.post('/payout/v1.2/requestTransfer', body);
      assert.deepEqual([again.http, again.body.message], [400, 'Insufficient balance in account']);
    });

    it('issue 21\'s path: applied, answer lost, status lags, the re-send is refused "insufficient balance"', async () => {
      const transferId = h.id();
      await h.fault({
        endpoint: 'directTransfer',
        loseAnswer: 'reset',
        statusLagMs: 15 * MIN,
        refuseResend: 'insufficient_balance',
        times: 1,
      });
      await unanswered(h.direct(SUCCESS_ACCOUNT, { transferId }));
      assert.equal((await legacyStatus(transferId)).http, 404);
      const resend = await h.direct(SUCCESS_ACCOUNT, { transferId });
      assert.deepEqual([resend.http, resend.body.message], [412, 'Insufficient balance in account']);
      const o = await outcome(transferId);
      assert.deepEqual(
        { accepted: o?.accepted, paid: o?.paid, status: o?.status },
        { accepted: 1, paid: 1, status: 'SUCCESS' },
      );
    });

    it('v2 answers its error object; internal transfers and batches are refused too', async () => {
      const v2Id = h.id('V');
      await h.fault({ endpoint: 'processValidatedPayout', refuseResend: 'insufficient_balance', times: 1 });
      assert.equal((await v2Send(v2Id)).body.status, 'SUCCESS');
      const again = await h.v2('POST', '/payout/transfers', {
        transfer_id: v2Id,
        transfer_token: 'any',
        transfer_amount: '1.00',
        transfer_mode: 'upi',
      });
      assert.deepEqual(
        [again.http, again.body],
        [
          400,
          {
            type: 'invalid_request_error',
            code: 'insufficient_balance',
            message: 'Insufficient balance in the account',
          },
        ],
      );
      await h.fault({ endpoint: 'processValidatedPayout', refuseResend: 'not_found', times: 1 });
      // A body with a transfer token is the token payout's (a body without one: Standard Transfer V2).
      const tokenBody = { transfer_id: v2Id, transfer_token: 'any' };
      assert.equal((await h.v2('POST', '/payout/transfers', tokenBody)).http, 404);

      const internalId = h.id('I');
      assert.equal((await internal(internalId)).body.subCode, '200');
      await h.fault({ endpoint: 'internalTransfer', refuseResend: 'duplicate', times: 1 });
      const dup = await internal(internalId);
      assert.deepEqual([dup.http, dup.body.message], [400, 'Duplicate transferId']);
      assert.equal((await outcome(internalId))?.paid, 1);

      const batchTransferId = h.id('B');
      const batch = {
        batchTransferId,
        batchFormat: 'BANK_ACCOUNT',
        batch: [
          {
            transferId: h.id(),
            amount: '2.00',
            ...SUCCESS_ACCOUNT,
            name: 'Batch Payee',
            phone: '9876543210',
          },
        ],
      };
      await h.fault({ endpoint: 'requestBatchTransfer', refuseResend: 'insufficient_balance', times: 1 });
      assert.equal((await h.post('/payout/v1/requestBatchTransfer', batch)).body.subCode, '200');
      const batchAgain = await h.post('/payout/v1/requestBatchTransfer', batch);
      assert.deepEqual([batchAgain.http, batchAgain.body.message], [400, 'Insufficient balance']);
    });
  });

  it('random mode draws the new kinds with their settings', async () => {
    await h.ctl('POST', '/__sandbox/fault-mode', {
      rate: 1,
      seed: 3,
      kinds: ['applyLater', 'statusLag', 'refuseResend'],
      lateApplyMs: { min: 20 * MIN, max: 25 * MIN },
      lateApplyAnswer: 503,
      lagMs: 5 * MIN,
      refusals: ['duplicate'],
    });
    const ids = Array.from({ length: 30 }, () => h.id('I'));
    const answers = await Promise.all(
      ids.map((id) =>
        internal(id).then(
          (r) => r.http,
          () => 'lost',
        ),
      ),
    );
    const injected = ((await h.ctl('GET', '/__sandbox/fault-mode')).body.injected ?? {}) as Record<
      string,
      number
    >;
    assert.equal(Object.keys(injected).length, 3, JSON.stringify(injected));
    assert.equal(answers.filter((a) => a === 503).length, injected['applyLater']);
    const held = await outcomes();
    assert.equal(held.pendingLateApplies.length, injected['applyLater']);
    for (const l of held.pendingLateApplies) {
      assert.ok(
        l.at - l.receivedAt >= 20 * MIN && l.at - l.receivedAt <= 25 * MIN,
        String(l.at - l.receivedAt),
      );
    }
    await h.ctl('DELETE', '/__sandbox/fault-mode');
    // Every applied id that drew refuseResend refuses a re-send as a duplicate.
    const applied = held.outcomes.map((o) => o.transferId);
    const resent = await Promise.all(applied.map((id) => internal(id)));
    assert.equal(
      resent.filter((r) => r.body.message === 'Duplicate transferId').length,
      injected['refuseResend'],
    );
    await h.advance(25 * MIN);
    assert.deepEqual((await outcomes()).pendingLateApplies, []);
  });

  it('outcomes: a returned transfer is not paid; statuses reached are listed', async () => {
    const transferId = h.id();
    assert.equal(
      (await h.direct({ bankAccount: '02014457596969', ifsc: 'CITI0000001' }, { transferId })).http,
      200,
    );
    await h.advance(MIN);
    const o = await outcome(transferId);
    assert.deepEqual(
      { status: o?.status, reached: o?.reached, paid: o?.paid, returned: o?.returned, failed: o?.failed },
      { status: 'REVERSED', reached: ['SUCCESS', 'REVERSED'], paid: 0, returned: true, failed: false },
    );
  });

  it('hostile sender: replays v1 verbatim and re-aimed (signature still verifies), v2 stale and badly signed', async () => {
    await h.ctl('POST', '/__sandbox/webhooks', { url: rx.url, version: 'v1' });
    const base = h.id('P');
    // Payout A (base + "1") fails at the bank; payout B (base) is pending: the re-aim target.
    assert.equal(
      (await h.direct({ bankAccount: '007711000031', ifsc: 'HDFC0000077' }, { transferId: base })).http,
      200,
    );
    assert.equal(
      (await h.direct({ bankAccount: '7766666351000', ifsc: 'YESB0000001' }, { transferId: `${base}1` }))
        .http,
      200,
    );
    await h.advance(MIN);
    await rx.until((all) => all.some((r) => r.event === 'TRANSFER_FAILED'));
    const genuine = rx.received.find((r) => r.event === 'TRANSFER_FAILED');
    assert.ok(genuine);
    rx.clear();
    const started = Date.now();
    await h.ctl('POST', '/__sandbox/webhooks/hostile', { perSecond: 40, total: 8 });
    await rx.until((all) => all.length === 8);
    assert.ok(Date.now() - started >= 150, 'a steady rate, not a burst');
    const view = (await h.ctl('GET', '/__sandbox/webhooks/hostile')).body as {
      running: boolean;
      counts: Record<string, { sent: number; accepted: number; atKnownId: number }>;
    };
    assert.deepEqual(Object.fromEntries(Object.entries(view.counts).map(([k, c]) => [k, c.sent])), {
      'v1-replay': 2,
      'v1-reaimed': 2,
      'v2-stale': 2,
      'v2-bad-signature': 2,
    });
    assert.equal(view.counts['v1-reaimed']?.atKnownId, 2);
    const secret = 'sandbox_client_secret';
    const v1 = rx.received.filter((r) => r.headers['x-webhook-timestamp'] === undefined);
    const reaimed = v1.filter((r) => r.body.refId !== undefined);
    assert.equal(reaimed.length, 2);
    for (const r of reaimed) {
      assert.deepEqual(
        { transferId: r.body.transferId, event: r.body.event, referenceId: r.body.referenceId },
        { transferId: base, event: 'TRANSFER_FAILED', referenceId: undefined },
      );
      assert.match(String(r.body.utr), /^1/);
      assert.ok(signatureValid(r, secret), 'the re-aimed webhook still verifies under the v1 scheme');
    }
    for (const r of v1.filter((x) => x.body.refId === undefined)) assert.ok(signatureValid(r, secret));
    const v2 = rx.received.filter((r) => r.headers['x-webhook-timestamp'] !== undefined);
    assert.equal(v2.length, 4);
    const stale = v2.filter((r) => signatureValid(r, secret));
    assert.equal(stale.length, 2, 'stale: the original timestamp and its signature');
    for (const r of stale) assert.ok(Number(r.headers['x-webhook-timestamp']) < started);
    for (const r of v2.filter((x) => !signatureValid(x, secret))) {
      assert.ok(Number(r.headers['x-webhook-timestamp']) >= started, 'bad signature: a fresh timestamp');
    }
    assert.equal(view.running, false, 'stops after total');
  });
});
