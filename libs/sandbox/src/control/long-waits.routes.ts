import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type z } from 'zod';
import { formatPaise, paiseFromConfig } from '../core/money.js';
import { stepAt, type TransferRecord } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { approveTransfer, LongWaitError, rejectTransfer, releaseQueue } from '../handlers/long-waits.js';
import { advanceSchema, approveSchema, calendarSchema, fundSchema, rejectSchema } from './control.schemas.js';
import { type SandboxClock } from '../core/clock.js';

type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;

function clockView(clock: SandboxClock): Record<string, unknown> {
  const now = clock.now();
  return { now, iso: new Date(now).toISOString(), offsetMs: clock.offset };
}

export interface ControlTools {
  readonly decode: <T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply) => T | undefined;
  readonly scoped: (h: Handler) => Handler;
  readonly unknown: (reply: FastifyReply, clientId: string) => unknown;
  readonly clientIdOf: (req: FastifyRequest) => string | undefined;
  readonly settleAll: (world: SandboxWorld) => void;
}

function view(world: SandboxWorld, t: TransferRecord): Record<string, unknown> {
  const step = stepAt(t, world.clock.now());
  return { transferId: t.transferId, status: step.status, statusCode: step.statusCode };
}

/**
 * The control calls of time and the provider's long waits (docs/SANDBOX.md, "Long waits"): the
 * sandbox clocks (global and per merchant), funding the account (queued transfers go), the
 * dashboard's approval and rejection, and the bank calendar.
 */
export function registerLongWaits(app: FastifyInstance, world: SandboxWorld, tools: ControlTools): void {
  const P = '/__sandbox';
  const { decode, scoped, unknown, clientIdOf, settleAll } = tools;
  const get = (url: string, h: Handler) => app.get(url, h);
  const post = (url: string, h: Handler) => app.post(url, h);
  // `?clientId=`: that merchant's own clock (its offset on top of the global one); else the global one.
  const clockOf = (req: FastifyRequest): SandboxClock | undefined => {
    const id = clientIdOf(req);
    return id === undefined ? world.globalClock : world.merchantById(id)?.clock;
  };
  get(`${P}/clock`, (req, reply) => {
    const clock = clockOf(req);
    return clock ? clockView(clock) : unknown(reply, clientIdOf(req) ?? '');
  });
  post(`${P}/clock/advance`, (req, reply) => {
    const clock = clockOf(req);
    if (!clock) return unknown(reply, clientIdOf(req) ?? '');
    const b = decode(advanceSchema, req.body, reply);
    if (!b) return;
    clock.advance((b.ms ?? 0) + (b.seconds ?? 0) * 1000 + (b.days ?? 0) * 86_400_000);
    settleAll(world);
    return clockView(clock);
  });

  const refused = (reply: FastifyReply, err: unknown) => {
    if (!(err instanceof LongWaitError)) throw err;
    return reply.code(err.http).send({ error: err.message });
  };
  app.post(
    `${P}/fund`,
    scoped((req, reply) => {
      const b = decode(fundSchema, req.body, reply);
      if (!b) return;
      world.account.settle();
      // A top-up (CREDIT_CONFIRMATION on v1), then the queued transfers it can fund, oldest first.
      world.setBalance(world.account.balance + paiseFromConfig(b.amount));
      const released = releaseQueue(world);
      return { balance: formatPaise(world.account.balance), released };
    }),
  );
  app.get(
    `${P}/queue`,
    scoped(() => {
      const now = world.clock.now();
      const queued = world.account.queue.filter((t) => stepAt(t, now).status === 'QUEUED');
      return {
        balance: formatPaise(world.account.balance),
        queued: queued.map((t) => ({ transferId: t.transferId, amount: formatPaise(t.amount) })),
      };
    }),
  );
  app.post(
    `${P}/transfers/approve`,
    scoped((req, reply) => {
      const b = decode(approveSchema, req.body, reply);
      if (!b) return;
      try {
        return view(world, approveTransfer(world, b.transferId));
      } catch (err) {
        return refused(reply, err);
      }
    }),
  );
  app.post(
    `${P}/transfers/reject`,
    scoped((req, reply) => {
      const b = decode(rejectSchema, req.body, reply);
      if (!b) return;
      try {
        return view(world, rejectTransfer(world, b.transferId, b.statusCode ?? 'MANUALLY_REJECTED'));
      } catch (err) {
        return refused(reply, err);
      }
    }),
  );
  app.get(`${P}/calendar`, () => world.calendar);
  app.post(`${P}/calendar`, (req, reply) => {
    const b = decode(calendarSchema, req.body, reply);
    if (!b) return;
    world.calendar = {
      weekendDays: b.weekendDays ?? world.calendar.weekendDays,
      holidays: b.holidays ?? world.calendar.holidays,
    };
    return world.calendar;
  });
}
