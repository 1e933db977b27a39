import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, operatorsEnv, startStack, type Stack } from '#test-support';

const ACCOUNT = 'default';
const TOKENS = {
  vera: 'humans-viewer-token-0123456789abcdef',
  otto: 'humans-operator-token-0123456789abcd',
  anna: 'humans-approver-token-0123456789abcd',
  abel: 'humans-approver2-token-0123456789abc',
} as const;
type Who = keyof typeof TOKENS;
type Row = Record<string, unknown>;

// Four eyes means two humans (issue 30, defects 1, 2 and 5), over real HTTP against a whole
// stack: a token counts as the human who issued it, tokens decide nothing, a contradiction is
// acknowledged by two people, a beneficiary's instrument changes only once a second person
// approves, and a proposal never outlives the version of its payout.
describe('four eyes: two humans', () => {
  let stack: Stack;
  let url: string;

  /** `who`: one of the configured operators, or an automation token itself. */
  const call = async (who: string, method: string, path: string, body?: object) => {
    const token = who in TOKENS ? TOKENS[who as Who] : who;
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json') && text;
    return { status: res.status, body: json ? (JSON.parse(text) as Row) : {}, text };
  };

  const insertPayout = async (transferId: string, status: string, version = 4) => {
    await stack.sql(
      `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, version, attempt, reason)
       VALUES ($1, $2, 'direct_transfer', 'h', '{}'::jsonb, '5.00', $3, $4, 1, 'reconciliation_schedule_exhausted')`,
      [ACCOUNT, transferId, status, version],
    );
  };
  const statusOf = async (transferId: string) =>
    (await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/${transferId}`)).body['status'];
  const issueToken = async (who: Who, name: string, role: string) => {
    const t = await call(who, 'POST', '/ops/tokens', { name, role });
    assert.equal(t.status, 201, t.text);
    return { token: t.body['token'] as string, id: t.body['id'] as string };
  };
  const actionsOf = (where: string) =>
    stack.sql<{
      operator_id: string;
      operator_name: string | null;
      via: string | null;
      action: string;
      result: string;
    }>(
      `SELECT operator_id, operator_name, via, action, result FROM operator_action WHERE ${where} ORDER BY id`,
    );

  before(async () => {
    stack = await startStack({
      env: {
        OPS_OPERATORS: operatorsEnv([
          { id: 'vera', role: 'viewer', token: TOKENS.vera },
          { id: 'otto', role: 'operator', token: TOKENS.otto },
          { id: 'anna', role: 'approver', token: TOKENS.anna },
          { id: 'abel', role: 'approver', token: TOKENS.abel },
        ]),
      },
    });
    url = (await stack.startService()).url;
  });
  after(async () => {
    await stack?.close();
  });

  describe('a token is its issuer', () => {
    it('an approver proposes with her own token and approves as herself: refused, nothing moves; another human approves', async () => {
      await insertPayout('hu_self', 'REQUIRES_ATTENTION');
      const { token } = await issueToken('anna', 'anna-bot', 'operator');
      const p = await call(token, 'POST', `/ops/payouts/${ACCOUNT}/hu_self/proposals`, {
        outcome: 'FAILED',
        note: 'the bank says it never arrived',
        version: 4,
      });
      assert.equal(p.status, 201, p.text);

      const self = await call('anna', 'POST', `/ops/proposals/${p.body['id'] as string}/approve`, {});
      assert.equal(self.status, 403, self.text);
      assert.equal(self.body['code'], 'forbidden');
      assert.equal(await statusOf('hu_self'), 'REQUIRES_ATTENTION', 'one person did not move the money');
      assert.equal(p.body['proposedBy'], 'anna', 'the proposal is the issuer’s');
      assert.equal(p.body['proposedVia'], 'token:anna-bot');

      const ok = await call('abel', 'POST', `/ops/proposals/${p.body['id'] as string}/approve`, {});
      assert.equal(ok.status, 200, ok.text);
      assert.equal((await stack.waitForStatus('hu_self', 'FAILED')).data.reason, 'settled_by_operator');
      const [moved] = await stack.sql<{ operator_id: string; approver_id: string }>(
        `SELECT operator_id, approver_id FROM state_history WHERE transfer_id = 'hu_self' AND to_status = 'FAILED'`,
      );
      assert.deepEqual(moved, { operator_id: 'anna', approver_id: 'abel' }, 'the history names two humans');
      assert.deepEqual(
        (await actionsOf(`transfer_id = 'hu_self'`)).map((a) => [a.operator_id, a.via, a.action, a.result]),
        [
          ['anna', 'token:anna-bot', 'propose', 'proposed'],
          ['anna', 'configured', 'approve', 'forbidden'],
          ['abel', 'configured', 'approve', 'approved'],
        ],
      );
    });

    it('a token cannot approve or reject, whatever its role', async () => {
      await insertPayout('hu_tok', 'REQUIRES_ATTENTION');
      const { token } = await issueToken('abel', 'abel-approver-bot', 'approver');
      const p = await call('otto', 'POST', `/ops/payouts/${ACCOUNT}/hu_tok/proposals`, {
        outcome: 'FAILED',
        note: 'n',
        version: 4,
      });
      assert.equal(p.status, 201, p.text);
      for (const d of ['approve', 'reject']) {
        const r = await call(token, 'POST', `/ops/proposals/${p.body['id'] as string}/${d}`, {});
        assert.equal(r.status, 403, `${d}: ${r.text}`);
      }
      assert.equal(await statusOf('hu_tok'), 'REQUIRES_ATTENTION');
      const me = await call(token, 'GET', '/ops/me');
      assert.equal(me.body['id'], 'abel');
      assert.ok(!(me.body['may'] as string[]).includes('decide'), 'the token is told it may not decide');
    });

    it('a token cannot issue or revoke tokens, whatever its role', async () => {
      const { token, id } = await issueToken('anna', 'anna-approver-bot', 'approver');
      const minted = await call(token, 'POST', '/ops/tokens', { name: 'minted-by-a-token', role: 'viewer' });
      assert.equal(minted.status, 403, minted.text);
      assert.equal((await stack.sql(`SELECT 1 FROM ops_token WHERE name = 'minted-by-a-token'`)).length, 0);
      assert.equal((await call(token, 'DELETE', `/ops/tokens/${id}`)).status, 403);
      assert.equal((await call(token, 'GET', '/ops/tokens')).status, 403);
      const [row] = await stack.sql<{ created_by: string; created_by_name: string }>(
        `SELECT created_by, created_by_name FROM ops_token WHERE id = $1`,
        [id],
      );
      assert.deepEqual(
        row,
        { created_by: 'anna', created_by_name: 'anna' },
        'the issuer is kept with the token',
      );
    });
  });

  describe('a contradiction is acknowledged by two people', () => {
    it('one person alone cannot clear a paid_after_failure alarm; a second, other human confirms', async () => {
      await insertPayout('hu_contra', 'FAILED', 3);
      const [c] = await stack.sql<{ id: string }>(
        `INSERT INTO payout_contradiction (payout_id, account_id, transfer_id, version, kind, published, observed, source, event_id)
         SELECT id, account_id, transfer_id, version, 'paid_after_failure', status, 'SUCCESS', 'reconciler',
                'payout/' || account_id || '/' || transfer_id || ':' || version || ':contradicted:success'
           FROM payout WHERE transfer_id = 'hu_contra' RETURNING id::text`,
      );
      const open = async () =>
        ((await call('vera', 'GET', '/ops/requires-attention')).body['contradictions'] as Row[]).find(
          (x) => x['transferId'] === 'hu_contra',
        );
      const first = await call('otto', 'POST', `/ops/contradictions/${c!.id}/acknowledge`, {
        note: 'refund agreed with upstream',
      });
      assert.equal(first.status, 202, first.text);
      assert.equal(first.body['acknowledgedBy'], null, 'not acknowledged by one person');
      assert.equal(first.body['acknowledgementProposedBy'], 'otto');
      assert.ok(await open(), 'still in the queue: one person is not enough');

      const again = await call('otto', 'POST', `/ops/contradictions/${c!.id}/acknowledge`, {});
      assert.equal(again.status, 409, again.text);
      const { token } = await issueToken('abel', 'abel-ack-bot', 'approver');
      const byToken = await call(token, 'POST', `/ops/contradictions/${c!.id}/confirm`, {});
      assert.equal(byToken.status, 403, 'a token confirms nothing');
      assert.ok(await open());

      const done = await call('abel', 'POST', `/ops/contradictions/${c!.id}/confirm`, { note: 'seen' });
      assert.equal(done.status, 200, done.text);
      assert.deepEqual(
        [done.body['acknowledgementProposedBy'], done.body['acknowledgedBy']],
        ['otto', 'abel'],
      );
      assert.equal(await open(), undefined, 'two people: it leaves the queue');
      assert.deepEqual(
        (await actionsOf(`transfer_id = 'hu_contra'`)).map((a) => [a.operator_id, a.action, a.result]),
        [
          ['otto', 'acknowledge', 'awaiting_confirmation'],
          ['otto', 'acknowledge', 'conflict'],
          // The token was refused at the door (the sign-in audit has it), before the use case.
          ['abel', 'ack_confirm', 'acknowledged'],
        ],
      );
    });

    it('the person who acknowledged cannot confirm it, not even as an approver', async () => {
      await insertPayout('hu_contra2', 'FAILED', 3);
      const [c] = await stack.sql<{ id: string }>(
        `INSERT INTO payout_contradiction (payout_id, account_id, transfer_id, version, kind, published, observed, source, event_id)
         SELECT id, account_id, transfer_id, version, 'paid_after_failure', status, 'SUCCESS', 'reconciler',
                'payout/' || account_id || '/' || transfer_id || ':' || version || ':contradicted:success'
           FROM payout WHERE transfer_id = 'hu_contra2' RETURNING id::text`,
      );
      assert.equal((await call('anna', 'POST', `/ops/contradictions/${c!.id}/acknowledge`, {})).status, 202);
      const self = await call('anna', 'POST', `/ops/contradictions/${c!.id}/confirm`, {});
      assert.equal(self.status, 403, self.text);
      const [row] = await stack.sql<{ acknowledged_at: Date | null }>(
        `SELECT acknowledged_at FROM payout_contradiction WHERE id = $1`,
        [c!.id],
      );
      assert.equal(row?.acknowledged_at, null);
    });
  });

  describe('a proposal never outlives its version (defect 5)', () => {
    it('a payout that left REQUIRES_ATTENTION and came back at a newer version is not settled by the old proposal', async () => {
      await insertPayout('hu_stale', 'REQUIRES_ATTENTION');
      const old = await call('otto', 'POST', `/ops/payouts/${ACCOUNT}/hu_stale/proposals`, {
        outcome: 'FAILED',
        note: 'looks failed',
        version: 4,
      });
      assert.equal(old.status, 201, old.text);
      // It leaves REQUIRES_ATTENTION (a recheck reopens it) and comes back to a person: the
      // provider does not know it, and a reopened payout is never settled FAILED automatically.
      assert.equal((await call('otto', 'POST', `/ops/payouts/${ACCOUNT}/hu_stale/recheck`)).status, 202);
      const back = await eventually(
        async () => {
          const [r] = await stack.sql<{ status: string; version: number }>(
            `SELECT status, version FROM payout WHERE transfer_id = 'hu_stale'`,
          );
          return r && r.status === 'REQUIRES_ATTENTION' && r.version > 4 ? r : undefined;
        },
        { what: 'hu_stale back in REQUIRES_ATTENTION', timeoutMs: 30_000 },
      );
      const a = await call('anna', 'POST', `/ops/proposals/${old.body['id'] as string}/approve`, {});
      assert.equal(a.status, 409, a.text);
      assert.equal(a.body['code'], 'concurrent_change');
      const [row] = await stack.sql<{ status: string; version: number }>(
        `SELECT status, version FROM payout WHERE transfer_id = 'hu_stale'`,
      );
      assert.deepEqual(row, back, 'the payout did not move');
      const [p] = await stack.sql<{ state: string }>(`SELECT state FROM payout_proposal WHERE id = $1`, [
        old.body['id'],
      ]);
      assert.equal(p?.state, 'stale');
    });
  });

  describe("a change of a beneficiary's instrument takes two people (defect 2)", () => {
    const details = (beneId: string) => ({
      beneId,
      name: 'Asha Rao',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
      email: 'asha.rao@example.com',
      phone: '9876543210',
      address1: '12 MG Road',
    });

    it('a registration is a proposal: the provider is called only when another human approves', async () => {
      const p = await call('otto', 'POST', `/ops/beneficiaries/${ACCOUNT}`, details('HUB1'));
      assert.equal(p.status, 202, p.text);
      assert.deepEqual([p.body['change'], p.body['state'], p.body['proposedBy']], ['create', 'open', 'otto']);
      assert.ok(!p.text.includes('026291800001191') && !p.text.includes('9876543210'), 'masked');
      assert.equal((await call('vera', 'GET', `/ops/beneficiaries/${ACCOUNT}/HUB1`)).status, 404, 'not yet');

      const { token } = await issueToken('anna', 'anna-bene-bot', 'approver');
      const id = p.body['id'] as string;
      assert.equal((await call(token, 'POST', `/ops/beneficiary-proposals/${id}/approve`, {})).status, 403);
      assert.equal((await call('otto', 'POST', `/ops/beneficiary-proposals/${id}/approve`, {})).status, 403);
      const listed = await call('vera', 'GET', '/ops/beneficiary-proposals?state=open');
      assert.ok(
        (listed.body['items'] as Row[]).some((x) => x['id'] === id),
        listed.text,
      );

      const ok = await call('anna', 'POST', `/ops/beneficiary-proposals/${id}/approve`, {
        note: 'called her',
      });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(
        [ok.body['state'], ok.body['result'], ok.body['decidedBy']],
        ['approved', 'created', 'anna'],
      );
      assert.equal((await call('vera', 'GET', `/ops/beneficiaries/${ACCOUNT}/HUB1`)).status, 200);

      const del = await call('anna', 'DELETE', `/ops/beneficiaries/${ACCOUNT}/HUB1`);
      assert.equal(del.status, 202, del.text);
      const delId = del.body['id'] as string;
      const self = await call('anna', 'POST', `/ops/beneficiary-proposals/${delId}/approve`, {});
      assert.equal(self.status, 403, 'the proposer cannot approve her own change');
      assert.equal(
        (await call('vera', 'GET', `/ops/beneficiaries/${ACCOUNT}/HUB1`)).status,
        200,
        'still there',
      );
      const gone = await call('abel', 'POST', `/ops/beneficiary-proposals/${delId}/approve`, {});
      assert.deepEqual([gone.status, gone.body['result']], [200, 'deleted'], gone.text);
      assert.equal((await call('vera', 'GET', `/ops/beneficiaries/${ACCOUNT}/HUB1`)).status, 404);

      assert.deepEqual(
        (await actionsOf(`bene_id = 'HUB1'`)).map((a) => [a.operator_id, a.via, a.action, a.result]),
        [
          ['otto', 'configured', 'bene_create', 'proposed'],
          ['anna', 'configured', 'bene_approve', 'created'],
          ['anna', 'configured', 'bene_delete', 'proposed'],
          ['anna', 'configured', 'bene_approve', 'forbidden'],
          ['abel', 'configured', 'bene_approve', 'deleted'],
        ],
      );
      const all = JSON.stringify(await stack.sql(`SELECT * FROM beneficiary_proposal`));
      for (const secret of ['026291800001191', '9876543210', 'asha.rao@example.com'])
        assert.ok(!all.includes(secret), 'the pending details are stored encrypted');
    });

    it('a rejected change calls nothing', async () => {
      const p = await call('otto', 'POST', `/ops/beneficiaries/${ACCOUNT}`, details('HUB2'));
      assert.equal(p.status, 202, p.text);
      const r = await call('abel', 'POST', `/ops/beneficiary-proposals/${p.body['id'] as string}/reject`, {
        note: 'not requested by the business',
      });
      assert.deepEqual([r.status, r.body['state']], [200, 'rejected'], r.text);
      assert.equal((await call('vera', 'GET', `/ops/beneficiaries/${ACCOUNT}/HUB2`)).status, 404);
    });
  });
});
