import { type FastifyInstance } from 'fastify';
import { balanceOf } from '../core/balance.js';
import { debitOf } from '../core/fees.js';
import { formatPaise, paiseFromConfig } from '../core/money.js';
import { stepAt } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { releaseQueue } from '../handlers/long-waits.js';
import { type ControlTools, type Handler } from './control-tools.js';
import { balanceSchema, feesSchema, fundSchema } from './control.schemas.js';

/**
 * The control calls of a merchant's money (docs/SANDBOX.md, "Balance and fees"): read (ledger and
 * available) or set its balance, fund it (queued transfers go), set the service charge per payout
 * and list what waits for funds.
 */
export function registerFunds(app: FastifyInstance, world: SandboxWorld, tools: ControlTools): void {
  const P = '/__sandbox';
  const { decode, scoped, each } = tools;
  const get = (url: string, h: Handler) => app.get(url, h);
  const post = (url: string, h: Handler) => app.post(url, h);
  get(
    `${P}/balance`,
    scoped(() => {
      const { ledger, available } = balanceOf(world.account, world.clock.now());
      // `balance` is the available balance (what POST /balance sets), as before.
      return {
        balance: formatPaise(available),
        availableBalance: formatPaise(available),
        ledgerBalance: formatPaise(ledger),
      };
    }),
  );
  // Every payout the balance check refused (never a fault's refusal): a run holding payouts for
  // funds tells from it that nothing it held was bounced. Every merchant unless `?clientId=`.
  get(
    `${P}/balance/refusals`,
    each((_req, _reply, merchants) => ({
      refusals: merchants.flatMap((m) =>
        m.account.balanceRefusals.map((r) => ({
          ...r,
          debit: formatPaise(r.debit),
          available: formatPaise(r.available),
        })),
      ),
    })),
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
  const feeView = () => {
    const fee = world.account.fee();
    return { transferCharge: formatPaise(fee.charge), transferTax: formatPaise(fee.tax) };
  };
  get(`${P}/fees`, scoped(feeView));
  post(
    `${P}/fees`,
    scoped((req, reply) => {
      const b = decode(feesSchema, req.body, reply);
      if (!b) return;
      // Payouts from now on carry it; those already made keep theirs.
      world.account.transferCharge = paiseFromConfig(b.transferCharge);
      return feeView();
    }),
  );
  get(
    `${P}/queue`,
    scoped(() => {
      const now = world.clock.now();
      const queued = world.account.queue.filter((t) => stepAt(t, now).status === 'QUEUED');
      return {
        balance: formatPaise(world.account.balance),
        // `debit`: what funding it takes (its amount and fee).
        queued: queued.map((t) => ({
          transferId: t.transferId,
          amount: formatPaise(t.amount),
          debit: formatPaise(debitOf(t)),
        })),
      };
    }),
  );
}
