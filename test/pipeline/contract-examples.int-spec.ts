import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type Command,
  COMMAND_EXAMPLES,
  commandIdentity,
  EXAMPLE_PLACEHOLDERS,
  QUERY_EXAMPLES,
  replyHeaderProblems,
  replyProblems,
} from '#contracts';
import { CARD_TOKENS, SUCCESS_VPA } from '#sandbox';
import { eventually, startStack, type Stack } from '#test-support';

/**
 * Every command and query example of the contract (docs/CONTRACTS.md, docs/asyncapi.json), as
 * written, published to a running service on real Kafka with the provider sandbox: each command
 * reaches its success, each query gets an ok reply with the reply headers of the contract. Only the
 * documented placeholders are filled in, with the sandbox values the contract names.
 */
describe('the contract examples, against the sandbox', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  /** The sandbox value of each placeholder (EXAMPLE_PLACEHOLDERS says which, for readers). */
  async function sandboxValue(placeholder: string, c: Command): Promise<string> {
    switch (placeholder) {
      case '<token from Validate Payout>': {
        const t = (await stack.sandboxCall('POST', '/__sandbox/transfer-tokens', {
          transfer_id: commandIdentity(c),
          vpa: SUCCESS_VPA,
        })) as { transfer_token: string };
        return t.transfer_token;
      }
      case '<card token>':
        return CARD_TOKENS.success[1];
      case '<cryptogram>':
        return 'sandbox-cryptogram';
      default:
        throw new Error(`placeholder ${placeholder} has no sandbox value in this test`);
    }
  }

  async function filled(c: Command): Promise<Command> {
    let text = JSON.stringify(c);
    for (const p of new Set(text.match(/<[^<>"]+>/g) ?? [])) {
      assert.ok(p in EXAMPLE_PLACEHOLDERS, `${p} is a documented placeholder`);
      text = text.split(p).join(await sandboxValue(p, c));
    }
    return JSON.parse(text) as Command;
  }

  it('every command example reaches its success', async () => {
    for (const c of COMMAND_EXAMPLES) await stack.send(await filled(c));
    for (const c of COMMAND_EXAMPLES) {
      const id = commandIdentity(c);
      const final = c.type === 'payout.batch_transfer' ? 'COMPLETED' : 'SUCCESS';
      const e = await stack.waitForStatus(id, final, 30_000);
      if (c.type === 'payout.batch_transfer') {
        const entries = c.data.entries.length;
        assert.deepEqual(e.data.totals, { entries, succeeded: entries, failed: 0, pending: 0 });
      }
    }
    assert.deepEqual(stack.dlq.length, 0, 'no example was dead-lettered');
  });

  it('every query example gets an ok reply, with the headers of the contract', async () => {
    const trace = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    // In order: create BENE43, read the test beneficiary BENE42, delete BENE43.
    for (const [i, q] of QUERY_EXAMPLES.entries()) {
      await stack.query(q, i === 0 ? { traceparent: trace } : undefined);
      const m = await eventually(() => stack.replyMessages.find((r) => r.reply.queryId === q.queryId), {
        what: `reply ${q.queryId}`,
        timeoutMs: 15_000,
      });
      assert.equal(m.reply.ok, true, `${q.type}: ${JSON.stringify(m.reply.error)}`);
      assert.equal(replyProblems(m.reply), undefined);
      assert.equal(m.key, q.queryId);
      assert.equal(replyHeaderProblems(m.headers), undefined, `${q.type}: ${JSON.stringify(m.headers)}`);
      assert.equal(m.headers['ce_type'], `payouts.reply.${q.type}`);
      assert.equal(m.headers['query-id'], q.queryId);
      // Tracing is off in this stack: the query's own traceparent is carried over as it came.
      assert.equal(m.headers['traceparent'], i === 0 ? trace : undefined, q.type);
    }
    const byId = (id: string) => stack.replies.find((r) => r.queryId === id);
    assert.equal(byId('q-1')?.data?.['beneId'], 'BENE42');
    assert.equal(byId('q-4')?.data?.['result'], 'created');
    assert.equal(
      (byId('q-5')?.data?.['beneficiary'] as Record<string, string>)['bankAccount'],
      'XXXXXXXXXXX4242',
    );
    assert.equal(byId('q-6')?.data?.['result'], 'deleted');
    assert.ok(!JSON.stringify(stack.replyMessages.map((r) => r.headers)).includes('accessToken'));
  });
});
