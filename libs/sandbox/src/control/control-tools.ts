import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type z } from 'zod';
import { type Merchant } from '../core/merchant.js';
import { type SandboxWorld } from '../core/world.js';
import { processBatchIfDue } from '../handlers/batch-processing.js';

export type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;

/** What every group of control routes shares: decoding, the merchant a call is for, settling. */
export interface ControlTools {
  /** The body decoded by `schema`, or a 400 naming what is wrong (then undefined). */
  readonly decode: <T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply) => T | undefined;
  /** A merchant's route: runs for `?clientId=` (the first merchant when absent). */
  readonly scoped: (h: Handler) => Handler;
  /** A report or reset: `?clientId=` narrows it to one merchant; absent, every merchant. */
  readonly each: (
    h: (req: FastifyRequest, reply: FastifyReply, merchants: readonly Merchant[]) => unknown,
  ) => Handler;
  /** The 404 of an unknown `clientId`. */
  readonly unknown: (reply: FastifyReply, clientId: string) => unknown;
  readonly clientIdOf: (req: FastifyRequest) => string | undefined;
  /** Brings every merchant's batches and refunds up to the clock. */
  readonly settleAll: (world: SandboxWorld) => void;
}

function decode<T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply): T | undefined {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  void reply
    .code(400)
    .send({ error: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  return undefined;
}

function settleAll(world: SandboxWorld): void {
  for (const m of world.merchants) {
    world.runAs(m, () => {
      for (const b of m.account.batches.values()) processBatchIfDue(world, b);
      m.account.settle();
    });
  }
}

function clientIdOf(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  return typeof q?.clientId === 'string' ? q.clientId : undefined;
}

export function controlTools(world: SandboxWorld): ControlTools {
  const unknown = (reply: FastifyReply, clientId: string) =>
    reply.code(404).send({ error: `clientId: no merchant ${JSON.stringify(clientId)}` });
  return {
    decode,
    settleAll,
    clientIdOf,
    unknown,
    scoped: (h) => (req, reply) => {
      const id = clientIdOf(req);
      const m = id === undefined ? world.firstMerchant : world.merchantById(id);
      if (!m) return unknown(reply, id ?? '');
      return world.runAs(m, () => h(req, reply));
    },
    each: (h) => (req, reply) => {
      const id = clientIdOf(req);
      if (id === undefined) return h(req, reply, world.merchants);
      const m = world.merchantById(id);
      return m ? h(req, reply, [m]) : unknown(reply, id);
    },
  };
}
