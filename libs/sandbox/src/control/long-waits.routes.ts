import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { stepAt, type TransferRecord } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { approveTransfer, LongWaitError, rejectTransfer } from '../handlers/long-waits.js';
import { advanceSchema, approveSchema, calendarSchema, rejectSchema } from './control.schemas.js';
import { type SandboxClock } from '../core/clock.js';
import { type ControlTools, type Handler } from './control-tools.js';

function clockView(clock: SandboxClock): Record<string, unknown> {
  const now = clock.now();
  return { now, iso: new Date(now).toISOString(), offsetMs: clock.offset };
}

function view(world: SandboxWorld, t: TransferRecord): Record<string, unknown> {
  const step = stepAt(t, world.clock.now());
  return { transferId: t.transferId, status: step.status, statusCode: step.statusCode };
}

/**
 * The control calls of time and the provider's long waits (docs/SANDBOX.md, "Long waits"): the
 * sandbox clocks (global and per merchant), the dashboard's approval and rejection, and the bank calendar.
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
