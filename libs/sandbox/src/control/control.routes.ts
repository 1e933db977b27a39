import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type z } from 'zod';
import { formatPaise, paiseFromConfig } from '../core/money.js';
import { stepAt } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { type Merchant } from '../core/merchant.js';
import { TRANSFER_TOKEN_TTL_MS } from '../core/transfer-tokens.js';
import { v2Date } from '../core/clock.js';
import { processBatchIfDue } from '../handlers/batch-processing.js';
import { releaseQueue } from '../handlers/long-waits.js';
import { registerLongWaits } from './long-waits.routes.js';
import {
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

/** Brings every merchant's batches and refunds up to the clock. */
function settleAll(world: SandboxWorld): void {
  for (const m of world.merchants) {
    world.runAs(m, () => {
      for (const b of m.account.batches.values()) processBatchIfDue(world, b);
      m.account.settle();
    });
  }
}

/** `?clientId=`: the merchant a control call is for. */
function clientIdOf(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  return typeof q?.clientId === 'string' ? q.clientId : undefined;
}

type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;

/** The sandbox-only control API under /__sandbox (see docs/SANDBOX.md). */
export function registerControl(app: FastifyInstance, world: SandboxWorld): void {
  const P = '/__sandbox';
  const unknown = (reply: FastifyReply, clientId: string) =>
    reply.code(404).send({ error: `clientId: no merchant ${JSON.stringify(clientId)}` });
  // A merchant's route: runs for `?clientId=` (the first merchant when absent).
  const scoped =
    (h: Handler): Handler =>
    (req, reply) => {
      const id = clientIdOf(req);
      const m = id === undefined ? world.firstMerchant : world.merchantById(id);
      if (!m) return unknown(reply, id ?? '');
      return world.runAs(m, () => h(req, reply));
    };
  // A report or reset: `?clientId=` narrows it to one merchant; absent, every merchant.
  const each =
    (h: (req: FastifyRequest, reply: FastifyReply, merchants: readonly Merchant[]) => unknown): Handler =>
    (req, reply) => {
      const id = clientIdOf(req);
      if (id === undefined) return h(req, reply, world.merchants);
      const m = world.merchantById(id);
      return m ? h(req, reply, [m]) : unknown(reply, id);
    };
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
  get(
    `${P}/balance`,
    scoped(() => {
      world.account.settle();
      return { balance: formatPaise(world.account.balance) };
    }),
  );
  post(
    `${P}/balance`,
    scoped((req, reply) => {
      const b = decode(balanceSchema, req.body, reply);
      if (!b) return;
      world.setBalance(paiseFromConfig(b.balance));
      // A top-up sends the queued transfers it can fund (low-balance queuing).
      const released = releaseQueue(world);
      return { balance: formatPaise(world.account.balance), released };
    }),
  );
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
  // Totals and every (account, id) the provider accepted more than once: a whole run's check
  // without shipping the whole log. Every merchant unless `?clientId=` names one.
  get(
    `${P}/received/summary`,
    each((_req, _reply, merchants) => {
      const accepted = new Map<string, number>();
      const byEndpoint: Record<string, { total: number; accepted: number }> = {};
      const rateLimited: Record<string, number> = {};
      let total = 0;
      for (const m of merchants) {
        total += m.account.received.length;
        for (const r of m.account.received) {
          const e = (byEndpoint[r.endpoint] ??= { total: 0, accepted: 0 });
          e.total += 1;
          if (!r.accepted) continue;
          e.accepted += 1;
          const key = `${r.account}\u0000${r.transferId}`;
          accepted.set(key, (accepted.get(key) ?? 0) + 1);
        }
        for (const [ep, n] of Object.entries(m.limiter.refusals()))
          rateLimited[ep] = (rateLimited[ep] ?? 0) + n;
      }
      const acceptedMoreThanOnce = [...accepted]
        .filter(([, n]) => n > 1)
        .map(([key, n]) => {
          const [account = '', transferId = ''] = key.split('\u0000');
          return { account, transferId, accepted: n };
        });
      return {
        total,
        accepted: [...accepted.values()].reduce((x, y) => x + y, 0),
        distinctAccepted: accepted.size,
        byEndpoint,
        acceptedMoreThanOnce,
        // Calls the rate limit refused (429), per endpoint: they never reach `received`.
        rateLimited,
      };
    }),
  );
  // Where every transfer stands now: what a run compares its own final states with.
  get(
    `${P}/transfers`,
    each((_req, _reply, merchants) => {
      settleAll(world);
      const now = world.clock.now();
      return {
        transfers: merchants.flatMap((m) =>
          [...m.account.transfers.values()].map((t) => ({
            account: m.clientId,
            transferId: t.transferId,
            endpoint: t.endpoint,
            amount: formatPaise(t.amount),
            status: stepAt(t, now).status,
          })),
        ),
      };
    }),
  );
  // The provider's record of every (account, id): applied (paid) or not, when, how often, returned
  // or failed; and the requests still held back by `applyLaterMs` (a run advances the clock past them).
  get(
    `${P}/outcomes`,
    each((req, _reply, merchants) => {
      settleAll(world);
      const q = req.query as Record<string, unknown>;
      const id = typeof q.transferId === 'string' ? q.transferId : undefined;
      const now = world.clock.now();
      return {
        now,
        pendingLateApplies: merchants.flatMap((m) =>
          [...m.lateApplies]
            .filter((l) => id === undefined || l.id === id)
            .map((l) => ({ account: m.clientId, ...l })),
        ),
        outcomes: merchants.flatMap((m) =>
          outcomesOf(m.account, now).filter((o) => id === undefined || o.transferId === id),
        ),
      };
    }),
  );
  get(
    `${P}/received`,
    each((req, _reply, merchants) => {
      const q = req.query as Record<string, unknown>;
      const id = typeof q.transferId === 'string' ? q.transferId : undefined;
      const initiations = merchants.flatMap((m) =>
        m.account.received.filter((r) => id === undefined || r.transferId === id),
      );
      return { initiations, accepted: initiations.filter((r) => r.accepted).length };
    }),
  );
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
  registerLongWaits(app, world, { decode, scoped, unknown, clientIdOf, settleAll });
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
