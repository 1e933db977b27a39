import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type SandboxWorld } from '../core/world.js';
import { type LegacyAnswer, type LegacyEndpoint } from '../handlers/endpoint.js';
import { COMMON } from '../tables/common.table.js';
import { legacyHttpStatus, RowAnswer, type LegacyRow } from '../tables/row.js';
import { checkLegacyAccess } from './access.js';
import { applyFaultAfter, applyFaultBefore } from './faults.apply.js';

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
    case 'subCode520': {
      const table: Readonly<Record<string, LegacyRow | undefined>> = ep.table;
      return sendLegacy(reply, { row: (pre.rowKey && table[pre.rowKey]) || ep.row520 });
    }
    case 'continue':
      break;
  }
  if (!world.limiter.take(ep.id, ep.group).allowed) return sendLegacy(reply, { row: COMMON.tooManyRequests });
  let answer: LegacyAnswer;
  try {
    const source = checkLegacyAccess(world, ep, req.ip, req.headers);
    answer = await ep.handle({
      world,
      body: req.body,
      query: req.query as Record<string, unknown>,
      params: req.params as Record<string, string | undefined>,
      headers: req.headers,
      source,
    });
  } catch (err) {
    if (!(err instanceof RowAnswer)) throw err;
    const id = initiationId(ep, req.body);
    if (id !== undefined) world.account.receive(ep.id, id, false, err.row.subCode);
    answer = { row: err.row };
  }
  const post = await applyFaultAfter(world, fault, req, reply);
  if (post.kind === 'lost') return;
  if (post.kind === 'http') return sendServerError(reply, post.status);
  sendLegacy(reply, answer);
}

export function registerLegacy(app: FastifyInstance, world: SandboxWorld, ep: LegacyEndpoint): void {
  for (const url of ep.paths) {
    app.route({ method: ep.method, url, handler: (req, reply) => run(world, ep, req, reply) });
  }
}
