import { type FastifyInstance, type FastifyReply } from 'fastify';
import { type z } from 'zod';
import { formatPaise, paiseFromConfig } from '../core/money.js';
import { stepAt } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { TRANSFER_TOKEN_TTL_MS } from '../core/transfer-tokens.js';
import { v2Date } from '../core/clock.js';
import { processBatchIfDue } from '../handlers/batch-processing.js';
import {
  advanceSchema,
  allowedIpsSchema,
  balanceSchema,
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
import { outcomesOf } from '../core/outcomes.js';
import { HOSTILE_VARIANTS } from '../webhooks/hostile.js';
import { INITIATION_ENDPOINTS, RANDOM_DEFAULTS, RANDOM_FAULT_KINDS } from '../core/faults.js';

function decode<T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply): T | undefined {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  void reply
    .code(400)
    .send({ error: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  return undefined;
}

function settleAll(world: SandboxWorld): void {
  for (const b of world.account.batches.values()) processBatchIfDue(world, b);
  world.account.settle();
}

function clockView(world: SandboxWorld): Record<string, unknown> {
  const now = world.clock.now();
  return { now, iso: new Date(now).toISOString() };
}

/** The sandbox-only control API under /__sandbox (see docs/SANDBOX.md). */
export function registerControl(app: FastifyInstance, world: SandboxWorld): void {
  const P = '/__sandbox';
  app.get(`${P}/public-key`, (_req, reply) =>
    reply.type('application/x-pem-file').send(world.keys.publicKeyPem),
  );
  app.get(`${P}/openapi.json`, () => buildOpenApi());
  app.get(`${P}/clock`, () => clockView(world));
  app.post(`${P}/clock/advance`, (req, reply) => {
    const b = decode(advanceSchema, req.body, reply);
    if (!b) return;
    world.clock.advance((b.ms ?? 0) + (b.seconds ?? 0) * 1000);
    settleAll(world);
    return clockView(world);
  });
  app.post(`${P}/reset`, () => {
    world.reset();
    return { reset: true };
  });
  app.get(`${P}/balance`, () => {
    world.account.settle();
    return { balance: formatPaise(world.account.balance) };
  });
  app.post(`${P}/balance`, (req, reply) => {
    const b = decode(balanceSchema, req.body, reply);
    if (!b) return;
    world.setBalance(paiseFromConfig(b.balance));
    return { balance: formatPaise(world.account.balance) };
  });
  app.get(`${P}/webhooks`, () => world.webhooks.view());
  app.post(`${P}/webhooks`, (req, reply) => {
    const b = decode(webhookConfigSchema, req.body, reply);
    if (!b) return;
    world.webhooks.configure({
      ...b,
      lowBalanceThreshold:
        b.lowBalanceThreshold === undefined ? undefined : paiseFromConfig(b.lowBalanceThreshold),
    });
    return world.webhooks.view();
  });
  app.post(`${P}/webhooks/enable`, () => {
    world.webhooks.enable();
    return world.webhooks.view();
  });
  app.get(`${P}/webhooks/deliveries`, (req) => {
    const q = req.query as Record<string, unknown>;
    const id = typeof q.transferId === 'string' ? q.transferId : undefined;
    const deliveries = world.webhooks.deliveries().filter((d) => id === undefined || d.transferId === id);
    return { deliveries };
  });
  app.post(`${P}/webhooks/incident`, (req, reply) => {
    const b = decode(webhookIncidentSchema, req.body, reply);
    if (!b) return;
    world.beneficiaryIncident(b.beneficiaryId ?? '', b.reason);
    return reply.code(202).send({ event: 'BENEFICIARY_INCIDENT' });
  });
  // Replays of captured webhooks (v1 re-aimed, v2 stale or badly signed) at a steady rate.
  app.get(`${P}/webhooks/hostile`, () => world.hostile.view());
  app.post(`${P}/webhooks/hostile`, (req, reply) => {
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
  });
  app.delete(`${P}/webhooks/hostile`, () => {
    world.hostile.stop();
    return world.hostile.view();
  });
  app.get(`${P}/flags`, () => world.account.flags);
  app.post(`${P}/flags`, (req, reply) => {
    const b = decode(flagsSchema, req.body, reply);
    if (!b) return;
    Object.assign(world.account.flags, b);
    return world.account.flags;
  });
  app.get(`${P}/faults`, () => ({ faults: world.faults.list() }));
  app.post(`${P}/faults`, (req, reply) => {
    const b = decode(faultSchema, req.body, reply);
    if (!b) return;
    world.faults.add(b);
    return reply.code(201).send({ faults: world.faults.list() });
  });
  app.delete(`${P}/faults`, (req) => {
    const q = req.query as Record<string, unknown>;
    world.faults.clear(typeof q.endpoint === 'string' ? q.endpoint : undefined);
    return { faults: world.faults.list() };
  });
  app.get(`${P}/fault-mode`, () => world.faults.randomView());
  app.post(`${P}/fault-mode`, (req, reply) => {
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
    });
    return world.faults.randomView();
  });
  app.delete(`${P}/fault-mode`, () => {
    world.faults.setRandom(undefined);
    return world.faults.randomView();
  });
  // Totals and every (account, id) the provider accepted more than once: a whole run's check
  // without shipping the whole log.
  app.get(`${P}/received/summary`, () => {
    const accepted = new Map<string, number>();
    const byEndpoint: Record<string, { total: number; accepted: number }> = {};
    for (const r of world.account.received) {
      const e = (byEndpoint[r.endpoint] ??= { total: 0, accepted: 0 });
      e.total += 1;
      if (!r.accepted) continue;
      e.accepted += 1;
      const key = `${r.account}\u0000${r.transferId}`;
      accepted.set(key, (accepted.get(key) ?? 0) + 1);
    }
    const acceptedMoreThanOnce = [...accepted]
      .filter(([, n]) => n > 1)
      .map(([key, n]) => {
        const [account = '', transferId = ''] = key.split('\u0000');
        return { account, transferId, accepted: n };
      });
    return {
      total: world.account.received.length,
      accepted: [...accepted.values()].reduce((a, b) => a + b, 0),
      distinctAccepted: accepted.size,
      byEndpoint,
      acceptedMoreThanOnce,
      // Calls the rate limit refused (429), per endpoint: they never reach `received`.
      rateLimited: world.limiter.refusals(),
    };
  });
  // Where every transfer stands now: what a run compares its own final states with.
  app.get(`${P}/transfers`, () => {
    settleAll(world);
    const now = world.clock.now();
    return {
      transfers: [...world.account.transfers.values()].map((t) => ({
        account: world.account.clientId,
        transferId: t.transferId,
        endpoint: t.endpoint,
        amount: formatPaise(t.amount),
        status: stepAt(t, now).status,
      })),
    };
  });
  // The provider's record of every id: applied (paid) or not, when, how often, returned or failed;
  // and the requests still held back by `applyLaterMs` (a run advances the clock past them).
  app.get(`${P}/outcomes`, (req) => {
    settleAll(world);
    const q = req.query as Record<string, unknown>;
    const id = typeof q.transferId === 'string' ? q.transferId : undefined;
    const now = world.clock.now();
    return {
      now,
      pendingLateApplies: [...world.lateApplies].filter((l) => id === undefined || l.id === id),
      outcomes: outcomesOf(world.account, now).filter((o) => id === undefined || o.transferId === id),
    };
  });
  app.get(`${P}/received`, (req) => {
    const q = req.query as Record<string, unknown>;
    const id = typeof q.transferId === 'string' ? q.transferId : undefined;
    const initiations = world.account.received.filter((r) => id === undefined || r.transferId === id);
    return { initiations, accepted: initiations.filter((r) => r.accepted).length };
  });
  app.post(`${P}/transfer-tokens`, (req, reply) => {
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
  });
  app.post(`${P}/rate-limits`, (req, reply) => {
    const b = decode(rateLimitSchema, req.body, reply);
    if (!b) return;
    world.limiter.setOverride(b.endpoint, b.perMinute ?? undefined);
    return { endpoint: b.endpoint, perMinute: b.perMinute };
  });
  app.get(`${P}/allowed-ips`, () => ({ ips: world.allowedIps }));
  app.post(`${P}/allowed-ips`, (req, reply) => {
    const b = decode(allowedIpsSchema, req.body, reply);
    if (!b) return;
    world.allowedIps = b.ips;
    return { ips: world.allowedIps };
  });
  app.post(`${P}/timing`, (req, reply) => {
    const b = decode(timingSchema, req.body, reply);
    if (!b) return;
    if (b.pendingDelayMs !== undefined) world.pendingDelayMs = b.pendingDelayMs;
    if (b.hangMs !== undefined) world.hangMs = b.hangMs;
    if (b.batchDelayMs !== undefined) world.batchDelayMs = b.batchDelayMs;
    if (b.acknowledgeDelayMs !== undefined) world.acknowledgeDelayMs = b.acknowledgeDelayMs;
    if (b.tokenTtlSeconds !== undefined) world.tokens.setTtl(b.tokenTtlSeconds);
    return {
      pendingDelayMs: world.pendingDelayMs,
      hangMs: world.hangMs,
      batchDelayMs: world.batchDelayMs,
      acknowledgeDelayMs: world.acknowledgeDelayMs,
    };
  });
}
