import { type FastifyInstance } from 'fastify';
import { paiseFromConfig } from '../core/money.js';
import { type SandboxWorld } from '../core/world.js';
import { TRANSFER_TOKEN_TTL_MS } from '../core/transfer-tokens.js';
import { v2Date } from '../core/clock.js';
import { registerLongWaits } from './long-waits.routes.js';
import { registerFunds } from './funds.routes.js';
import { registerReports } from './reports.routes.js';
import { controlTools, type Handler } from './control-tools.js';
import {
  allowedIpsSchema,
  faultModeSchema,
  faultSchema,
  flagsSchema,
  hostileSchema,
  rateLimitSchema,
  timingSchema,
  transferTokenSchema,
  webhookConfigSchema,
  webhookIncidentSchema,
} from './control.schemas.js';
import { buildOpenApi } from './openapi.js';
import { HOSTILE_VARIANTS } from '../webhooks/hostile.js';
import { RANDOM_DEFAULTS, RANDOM_FAULT_KINDS } from '../core/faults.js';
import { INITIATION_ENDPOINTS } from '../handlers/registry.js';

/** The sandbox-only control API under /__sandbox (see docs/SANDBOX.md). */
export function registerControl(app: FastifyInstance, world: SandboxWorld): void {
  const P = '/__sandbox';
  const tools = controlTools(world);
  const { decode, scoped, each } = tools;
  const get = (url: string, h: Handler) => app.get(url, h);
  const post = (url: string, h: Handler) => app.post(url, h);
  const del = (url: string, h: Handler) => app.delete(url, h);
  app.get(`${P}/public-key`, (_req, reply) =>
    reply.type('application/x-pem-file').send(world.keys.publicKeyPem),
  );
  app.get(`${P}/openapi.json`, () => buildOpenApi());
  post(
    `${P}/reset`,
    each((_req, _reply, merchants) => {
      if (merchants === world.merchants) world.reset();
      else for (const m of merchants) m.reset();
      return { reset: true, merchants: merchants.map((m) => m.clientId) };
    }),
  );
  registerFunds(app, world, tools);
  get(
    `${P}/webhooks`,
    scoped(() => world.webhooks.view()),
  );
  post(
    `${P}/webhooks`,
    scoped((req, reply) => {
      const b = decode(webhookConfigSchema, req.body, reply);
      if (!b) return;
      world.webhooks.configure({
        ...b,
        lowBalanceThreshold:
          b.lowBalanceThreshold === undefined ? undefined : paiseFromConfig(b.lowBalanceThreshold),
      });
      return world.webhooks.view();
    }),
  );
  post(
    `${P}/webhooks/enable`,
    scoped(() => {
      world.webhooks.enable();
      return world.webhooks.view();
    }),
  );
  get(
    `${P}/webhooks/deliveries`,
    scoped((req) => {
      const q = req.query as Record<string, unknown>;
      const id = typeof q.transferId === 'string' ? q.transferId : undefined;
      const deliveries = world.webhooks.deliveries().filter((d) => id === undefined || d.transferId === id);
      return { deliveries };
    }),
  );
  post(
    `${P}/webhooks/incident`,
    scoped((req, reply) => {
      const b = decode(webhookIncidentSchema, req.body, reply);
      if (!b) return;
      world.beneficiaryIncident(b.beneficiaryId ?? '', b.reason);
      return reply.code(202).send({ event: 'BENEFICIARY_INCIDENT' });
    }),
  );
  // Replays of captured webhooks (v1 re-aimed, v2 stale or badly signed) at a steady rate.
  get(
    `${P}/webhooks/hostile`,
    scoped(() => world.hostile.view()),
  );
  post(
    `${P}/webhooks/hostile`,
    scoped((req, reply) => {
      const b = decode(hostileSchema, req.body, reply);
      if (!b) return;
      const url = b.url ?? world.webhooks.target?.url;
      const v1 = b.v1Url ?? url;
      const v2 = b.v2Url ?? url;
      if (v1 === undefined || v2 === undefined) {
        return reply
          .code(400)
          .send({ error: 'url: no webhook endpoint configured, give url (or v1Url and v2Url)' });
      }
      world.hostile.start({
        urls: { v1, v2 },
        perSecond: b.perSecond ?? 5,
        variants: b.variants ?? HOSTILE_VARIANTS,
        seed: b.seed ?? 1,
        ...(b.total === undefined ? {} : { total: b.total }),
      });
      return reply.code(202).send(world.hostile.view());
    }),
  );
  del(
    `${P}/webhooks/hostile`,
    scoped(() => {
      world.hostile.stop();
      return world.hostile.view();
    }),
  );
  get(
    `${P}/flags`,
    scoped(() => world.account.flags),
  );
  post(
    `${P}/flags`,
    scoped((req, reply) => {
      const b = decode(flagsSchema, req.body, reply);
      if (!b) return;
      Object.assign(world.account.flags, b);
      return world.account.flags;
    }),
  );
  get(
    `${P}/faults`,
    scoped(() => ({ faults: world.faults.list() })),
  );
  post(
    `${P}/faults`,
    scoped((req, reply) => {
      const b = decode(faultSchema, req.body, reply);
      if (!b) return;
      world.faults.add(b);
      return reply.code(201).send({ faults: world.faults.list() });
    }),
  );
  del(
    `${P}/faults`,
    scoped((req) => {
      const q = req.query as Record<string, unknown>;
      world.faults.clear(typeof q.endpoint === 'string' ? q.endpoint : undefined);
      return { faults: world.faults.list() };
    }),
  );
  get(
    `${P}/fault-mode`,
    scoped(() => world.faults.randomView()),
  );
  post(
    `${P}/fault-mode`,
    scoped((req, reply) => {
      const b = decode(faultModeSchema, req.body, reply);
      if (!b) return;
      world.faults.setRandom({
        rate: b.rate,
        seed: b.seed,
        endpoints: b.endpoints ?? INITIATION_ENDPOINTS,
        kinds: b.kinds ?? RANDOM_FAULT_KINDS,
        lateMs: b.lateMs ?? RANDOM_DEFAULTS.lateMs,
        lateApplyMs: b.lateApplyMs ?? RANDOM_DEFAULTS.lateApplyMs,
        lateApplyAnswer: b.lateApplyAnswer ?? RANDOM_DEFAULTS.lateApplyAnswer,
        lagMs: b.lagMs ?? RANDOM_DEFAULTS.lagMs,
        refusals: b.refusals ?? RANDOM_DEFAULTS.refusals,
        applyRate: b.applyRate ?? 0,
      });
      return world.faults.randomView();
    }),
  );
  del(
    `${P}/fault-mode`,
    scoped(() => {
      world.faults.setRandom(undefined);
      return world.faults.randomView();
    }),
  );
  registerReports(app, world, tools);
  post(
    `${P}/transfer-tokens`,
    scoped((req, reply) => {
      const b = decode(transferTokenSchema, req.body, reply);
      if (!b) return;
      const t = world.transferTokens.issue(b.transfer_id, b.vpa);
      return reply.code(201).send({
        transfer_token: t.token,
        transfer_id: t.transferId,
        vpa: t.vpa,
        account_status: 'VALID',
        name_at_bank: 'Sandbox Payee',
        expires_at: v2Date(t.issuedAt + TRANSFER_TOKEN_TTL_MS),
      });
    }),
  );
  post(
    `${P}/rate-limits`,
    scoped((req, reply) => {
      const b = decode(rateLimitSchema, req.body, reply);
      if (!b) return;
      world.limiter.setOverride(b.endpoint, b.perMinute ?? undefined);
      return { endpoint: b.endpoint, perMinute: b.perMinute };
    }),
  );
  get(
    `${P}/allowed-ips`,
    scoped(() => ({ ips: world.allowedIps })),
  );
  post(
    `${P}/allowed-ips`,
    scoped((req, reply) => {
      const b = decode(allowedIpsSchema, req.body, reply);
      if (!b) return;
      world.allowedIps = b.ips;
      return { ips: world.allowedIps };
    }),
  );
  registerLongWaits(app, world, tools);
  app.post(`${P}/timing`, (req, reply) => {
    const b = decode(timingSchema, req.body, reply);
    if (!b) return;
    if (b.pendingDelayMs !== undefined) world.pendingDelayMs = b.pendingDelayMs;
    if (b.hangMs !== undefined) world.hangMs = b.hangMs;
    if (b.batchDelayMs !== undefined) world.batchDelayMs = b.batchDelayMs;
    if (b.acknowledgeDelayMs !== undefined) world.acknowledgeDelayMs = b.acknowledgeDelayMs;
    if (b.lateReversalMs !== undefined) world.lateReversalMs = b.lateReversalMs;
    if (b.tokenTtlSeconds !== undefined) for (const m of world.merchants) m.tokens.setTtl(b.tokenTtlSeconds);
    return {
      pendingDelayMs: world.pendingDelayMs,
      hangMs: world.hangMs,
      batchDelayMs: world.batchDelayMs,
      acknowledgeDelayMs: world.acknowledgeDelayMs,
      lateReversalMs: world.lateReversalMs,
    };
  });
}
