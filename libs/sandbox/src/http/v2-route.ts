import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type SandboxWorld } from '../core/world.js';
import { type V2Context, type V2Endpoint } from '../handlers/v2-endpoint.js';
import { type V2Row } from '../tables/row.js';
import { V2_COMMON, V2Answer, failV2 } from '../tables/v2-common.table.js';
import { merchantOfRequest, sameSecret } from './access.js';
import { V2_REFUSALS } from '../tables/refusals.table.js';
import { applyFaultAfter, applyFaultBefore } from './faults.apply.js';
import { answerLater, markApplied, resendRefusal, scheduleLateApply } from './initiation-faults.js';

const API_VERSION_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export function v2ErrorBody(row: V2Row): Record<string, string> {
  return { type: row.type, code: row.code, message: row.message };
}

export function sendV2Error(reply: FastifyReply, row: V2Row): void {
  void reply.code(row.http).send(v2ErrorBody(row));
}

function checkHeaders(world: SandboxWorld, ep: V2Endpoint, h: FastifyRequest['headers']): void {
  const m = world.merchant;
  if (typeof h['x-client-id'] !== 'string' || h['x-client-id'] === '') failV2(V2_COMMON.clientIdMissing);
  if (typeof h['x-client-secret'] !== 'string' || h['x-client-secret'] === '')
    failV2(V2_COMMON.clientSecretMissing);
  if (!sameSecret(h['x-client-id'], m.clientId) || !sameSecret(h['x-client-secret'], m.clientSecret)) {
    failV2(V2_COMMON.authFailed);
  }
  const version = h['x-api-version'];
  if (typeof version !== 'string' || !API_VERSION_RE.test(version)) failV2(V2_COMMON.apiVersionInvalid);
  if (m.account.flags.apisDisabled.includes(ep.id)) failV2(V2_COMMON.apisNotEnabled);
}

function initiationId(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const v = (body as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

async function run(
  world: SandboxWorld,
  ep: V2Endpoint,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const requestId = req.headers['x-request-id'];
  if (typeof requestId === 'string') void reply.header('x-request-id', requestId);
  const fault = world.faults.take(ep.id);
  const pre = await applyFaultBefore(world, fault, req, reply);
  if (pre.kind === 'done') return;
  const rate = world.limiter.take(ep.id, ep.group);
  const limited = pre.kind === 'rateLimited' || !rate.allowed;
  // A disabled limit sends no headers: "remaining: 0" would make clients back off for nothing.
  if (rate.limit > 0) {
    void reply.headers({
      'x-ratelimit-limit': String(rate.limit),
      'x-ratelimit-remaining': String(rate.remaining),
      'x-ratelimit-retry': String(limited ? Math.min(59, rate.retry) : 0),
    });
  } else if (limited) {
    void reply.header('x-ratelimit-retry', '1');
  }
  if (limited) return sendV2Error(reply, V2_COMMON.rateLimited);
  if (pre.kind === 'http') return sendV2Error(reply, { ...V2_COMMON.internalError, http: pre.status });
  if (pre.kind === 'subCode520') return sendV2Error(reply, { ...V2_COMMON.internalError, http: 520 });
  const id = ep.initiationKey ? initiationId(req.body, ep.initiationKey) : undefined;
  const account = world.account;
  const since = account.received.length;
  let status = ep.successStatus ?? 200;
  let body: unknown;
  try {
    checkHeaders(world, ep, req.headers);
    const ctx: V2Context = { world, body: req.body, query: req.query as Record<string, unknown>, fault };
    if (fault?.applyLaterMs !== undefined) {
      scheduleLateApply(world, ep.id, id, fault.applyLaterMs, async () => {
        const before = account.received.length;
        await handleRefused(world, ep, ctx, id);
        markApplied(world, account, ep.id, id, fault, before);
      });
      return answerLater(req, reply, fault.applyLaterAnswer, (s) =>
        sendV2Error(reply, { ...V2_COMMON.internalError, http: s }),
      );
    }
    const refusal = resendRefusal(account, ep.id, id, fault);
    if (refusal) failV2(V2_REFUSALS[refusal]);
    body = await ep.handle(ctx);
  } catch (err) {
    if (!(err instanceof V2Answer)) throw err;
    if (id !== undefined) world.account.receive(ep.id, id, false, err.row.code);
    status = err.row.http;
    body = v2ErrorBody(err.row);
  }
  markApplied(world, account, ep.id, id, fault, since);
  const post = await applyFaultAfter(world, fault, req, reply);
  if (post.kind === 'lost') return;
  if (post.kind === 'http') return sendV2Error(reply, { ...V2_COMMON.internalError, http: post.status });
  if (post.kind === 'subCode520') return sendV2Error(reply, { ...V2_COMMON.internalError, http: 520 });
  void reply.code(status).send(body);
}

/** The handler with nobody waiting for its answer (a late apply): a refusal is only logged. */
async function handleRefused(
  world: SandboxWorld,
  ep: V2Endpoint,
  ctx: V2Context,
  id: string | undefined,
): Promise<void> {
  try {
    await ep.handle(ctx);
  } catch (err) {
    if (!(err instanceof V2Answer)) throw err;
    if (id !== undefined) world.account.receive(ep.id, id, false, err.row.code);
  }
}

/** The endpoint of a shared route this request is for (see `V2Endpoint.accepts`). */
export function pickV2(endpoints: readonly V2Endpoint[], body: unknown): V2Endpoint {
  const last = endpoints.at(-1);
  if (!last) throw new Error('a route without endpoints');
  return endpoints.find((ep) => ep !== last && ep.accepts?.(body)) ?? last;
}

/** One route per method and path; endpoints sharing one are told apart by their body. */
export function registerV2(
  app: FastifyInstance,
  world: SandboxWorld,
  endpoints: readonly V2Endpoint[],
): void {
  const routes = new Map<string, { method: V2Endpoint['method']; url: string; eps: V2Endpoint[] }>();
  for (const ep of endpoints) {
    for (const url of ep.paths) {
      const key = `${ep.method} ${url}`;
      const route = routes.get(key) ?? { method: ep.method, url, eps: [] };
      route.eps.push(ep);
      routes.set(key, route);
    }
  }
  for (const { method, url, eps } of routes.values()) {
    app.route({
      method,
      url,
      // Everything the call touches (faults, limits, state, webhooks) is its merchant's.
      handler: (req, reply) =>
        world.runAs(merchantOfRequest(world, 'credentials', req.headers), () =>
          run(world, pickV2(eps, req.body), req, reply),
        ),
    });
  }
}
