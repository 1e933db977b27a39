import { type FastifyInstance } from 'fastify';
import { formatPaise } from '../core/money.js';
import { outcomesOf } from '../core/outcomes.js';
import { stepAt } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { type ControlTools, type Handler } from './control-tools.js';

/**
 * The control API's reports (docs/SANDBOX.md, "Control API"): what the provider received, where
 * every transfer stands and the record of every id. Every merchant unless `?clientId=` names one.
 */
export function registerReports(app: FastifyInstance, world: SandboxWorld, tools: ControlTools): void {
  const P = '/__sandbox';
  const { each, settleAll } = tools;
  const get = (url: string, h: Handler) => app.get(url, h);
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
}
