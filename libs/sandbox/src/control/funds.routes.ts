import { type FastifyInstance } from 'fastify';
import { formatPaise, paiseFromConfig } from '../core/money.js';
import { stepAt } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { releaseQueue } from '../handlers/long-waits.js';
import { type ControlTools, type Handler } from './control-tools.js';
import { balanceSchema, fundSchema } from './control.schemas.js';

/**
 * The control calls of a merchant's money (docs/SANDBOX.md, "Balance and fees"): read or set its
 * balance, fund it (queued transfers go) and list what waits for funds.
 */
export function registerFunds(app: FastifyInstance, world: SandboxWorld, tools: ControlTools): void {
  const P = '/__sandbox';
  const { decode, scoped } = tools;
  const get = (url: string, h: Handler) => app.get(url, h);
  const post = (url: string, h: Handler) => app.post(url, h);
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
  post(
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
  get(
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
}
