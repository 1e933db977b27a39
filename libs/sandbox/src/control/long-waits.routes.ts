import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type z } from 'zod';
import { formatPaise, paiseFromConfig } from '../core/money.js';
import { stepAt, type TransferRecord } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { approveTransfer, LongWaitError, rejectTransfer, releaseQueue } from '../handlers/long-waits.js';
import { approveSchema, calendarSchema, fundSchema, rejectSchema } from './control.schemas.js';

type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;

export interface ControlTools {
  readonly decode: <T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply) => T | undefined;
  readonly scoped: (h: Handler) => Handler;
}

function view(world: SandboxWorld, t: TransferRecord): Record<string, unknown> {
  const step = stepAt(t, world.clock.now());
  return { transferId: t.transferId, status: step.status, statusCode: step.statusCode };
}

/**
 * The control calls of the provider's long waits (docs/SANDBOX.md, "Long waits"): funding the
 * account (queued transfers go), the dashboard's approval and rejection, and the bank calendar.
 */
export function registerLongWaits(app: FastifyInstance, world: SandboxWorld, tools: ControlTools): void {
  const P = '/__sandbox';
  const { decode, scoped } = tools;
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
