import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type SandboxWorld } from '../core/world.js';
import { type LegacyAnswer, type LegacyEndpoint } from '../handlers/endpoint.js';
import { COMMON } from '../tables/common.table.js';
import { legacyHttpStatus, RowAnswer, type LegacyRow } from '../tables/row.js';
import { type LegacyContext } from '../handlers/endpoint.js';
import { checkLegacyAccess, merchantOfRequest } from './access.js';
import { legacyRefusalRow } from '../tables/refusals.table.js';
import { fail } from '../tables/row.js';
import { applyFaultAfter, applyFaultBefore } from './faults.apply.js';
import { answerLater, markApplied, resendRefusal, scheduleLateApply } from './initiation-faults.js';

export function legacyBody(answer: LegacyAnswer): Record<string, unknown> {
  if (answer.raw) return answer.raw;
  const { row, data } = answer;
  const body: Record<string, unknown> = { status: row.status, subCode: row.subCode, message: row.message };
  if (data !== undefined) body.data = data;
  return body;
}

export function sendLegacy(reply: FastifyReply, answer: LegacyAnswer): void {
  void reply.code(legacyHttpStatus(answer.row)).send(legacyBody(answer));
}

function initiationId(ep: LegacyEndpoint, body: unknown): string | undefined {
  if (!ep.initiationKey || typeof body !== 'object' || body === null) return undefined;
  const v = (body as Record<string, unknown>)[ep.initiationKey];
  return typeof v === 'string' ? v : undefined;
}

/** A gateway-style 5xx with a generic error body (an injected fault). */
function sendServerError(reply: FastifyReply, status: number): void {
  void reply
    .code(status)
    .send({ status: 'ERROR', subCode: String(status), message: 'Internal server error' });
}

/** The endpoint's 520 row, or the table row a fault names. */
function row520(ep: LegacyEndpoint, rowKey: string | undefined): LegacyRow {
  const table: Readonly<Record<string, LegacyRow | undefined>> = ep.table;
  return (rowKey && table[rowKey]) || ep.row520;
}

async function run(
  world: SandboxWorld,
  ep: LegacyEndpoint,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const fault = world.faults.take(ep.id);
  const pre = await applyFaultBefore(world, fault, req, reply);
  switch (pre.kind) {
    case 'done':
      return;
    case 'rateLimited':
      return sendLegacy(reply, { row: COMMON.tooManyRequests });
    case 'http':
      return sendServerError(reply, pre.status);
    case 'subCode520':
      return sendLegacy(reply, { row: row520(ep, pre.rowKey) });
    case 'continue':
      break;
  }
  if (!world.limiter.take(ep.id, ep.group).allowed) return sendLegacy(reply, { row: COMMON.tooManyRequests });
  const id = initiationId(ep, req.body);
  const account = world.account;
  const since = account.received.length;
  let answer: LegacyAnswer;
  try {
    const source = checkLegacyAccess(world, ep, req.ip, req.headers);
    const ctx: LegacyContext = {
      world,
      body: req.body,
      query: req.query as Record<string, unknown>,
      params: req.params as Record<string, string | undefined>,
      headers: req.headers,
      source,
      fault,
    };
    if (fault?.applyLaterMs !== undefined) {
      scheduleLateApply(world, ep.id, id, fault.applyLaterMs, async () => {
        const before = account.received.length;
        await handleRefused(world, ep, ctx, id);
        markApplied(world, account, ep.id, id, fault, before);
      });
      return answerLater(req, reply, fault.applyLaterAnswer, (status) => sendServerError(reply, status));
    }
    const refusal = resendRefusal(account, ep.id, id, fault);
    if (refusal) fail(legacyRefusalRow(ep.id, ep.table, refusal));
    answer = await ep.handle(ctx);
  } catch (err) {
    if (!(err instanceof RowAnswer)) throw err;
    if (id !== undefined) world.account.receive(ep.id, id, false, err.row.subCode);
    answer = { row: err.row };
  }
  markApplied(world, account, ep.id, id, fault, since);
  const post = await applyFaultAfter(world, fault, req, reply);
  if (post.kind === 'lost') return;
  if (post.kind === 'http') return sendServerError(reply, post.status);
  if (post.kind === 'subCode520') return sendLegacy(reply, { row: row520(ep, post.rowKey) });
  sendLegacy(reply, answer);
}

/** The handler with nobody waiting for its answer (a late apply): a refusal is only logged. */
async function handleRefused(
  world: SandboxWorld,
  ep: LegacyEndpoint,
  ctx: LegacyContext,
  id: string | undefined,
): Promise<void> {
  try {
    await ep.handle(ctx);
  } catch (err) {
    if (!(err instanceof RowAnswer)) throw err;
    if (id !== undefined) world.account.receive(ep.id, id, false, err.row.subCode);
  }
}

export function registerLegacy(app: FastifyInstance, world: SandboxWorld, ep: LegacyEndpoint): void {
  for (const url of ep.paths) {
    app.route({
      method: ep.method,
      url,
      // Everything the call touches (faults, limits, state, webhooks) is its merchant's.
      handler: (req, reply) =>
        world.runAs(merchantOfRequest(world, ep.auth, req.headers), () => run(world, ep, req, reply)),
    });
  }
}
