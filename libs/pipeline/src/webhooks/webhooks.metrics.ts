import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Metrics of the `webhooks` role (docs/OPERATIONS.md, "Webhooks"). */
export class WebhookMetrics {
  /** Deliveries by API version, event type (`unverified` until the signature holds) and result. */
  readonly received: Counter<'version' | 'type' | 'result'>;
  /** What each kept webhook came to, by outcome. */
  readonly hints: Counter<'outcome'>;
  /** Webhooks naming a transferId we have no payout or batch entry for (counted once each). */
  readonly unmatched: Counter;
  /** From a webhook's arrival to the terminal event it applied (committed with the state). */
  readonly toTerminal: Histogram<'to'>;
  /** LOW_BALANCE_ALERT and BENEFICIARY_INCIDENT notices, by type. */
  readonly notices: Counter<'type'>;
  readonly backlog: Gauge<'state'>;

  constructor(registry: Registry, backlog?: () => Promise<Array<{ state: string; count: number }>>) {
    this.received = new Counter({
      name: 'payouts_webhooks_received_total',
      help: 'Provider webhooks received, by API version, event type (unverified when refused) and result (accepted, duplicate, bad_signature, stale, unknown_account, malformed, too_large)',
      labelNames: ['version', 'type', 'result'],
      registers: [registry],
    });
    this.hints = new Counter({
      name: 'payouts_webhook_hints_total',
      help: 'What kept webhooks came to: applied, recheck, waiting, unmatched, same_state, backwards, notice, ignored, expired',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.unmatched = new Counter({
      name: 'payouts_webhooks_unmatched_total',
      help: 'Webhooks naming a transferId with no payout or batch entry when first looked at (kept and matched again)',
      registers: [registry],
    });
    this.toTerminal = new Histogram({
      name: 'payouts_webhook_to_terminal_seconds',
      help: 'From a webhook received to the terminal state (and its event) it applied directly, by that state',
      labelNames: ['to'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.notices = new Counter({
      name: 'payouts_provider_notices_total',
      help: 'Provider notices received by webhook (LOW_BALANCE_ALERT, BENEFICIARY_INCIDENT), published as events',
      labelNames: ['type'],
      registers: [registry],
    });
    const gauge = new Gauge({
      name: 'payouts_webhooks_backlog',
      help: 'Kept webhooks not settled yet, by state (new, waiting, unmatched)',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        if (!backlog) return;
        gauge.reset();
        for (const s of ['new', 'waiting', 'unmatched']) gauge.set({ state: s }, 0);
        try {
          for (const r of await backlog()) gauge.set({ state: r.state }, r.count);
        } catch {
          // A scrape must not fail because the database is down: the gauge is left at zero.
        }
      },
    });
    this.backlog = gauge;
  }
}
