import { Counter, type Registry } from 'prom-client';

export class ReconcilerMetrics {
  readonly checks: Counter<'status'>;
  readonly transitions: Counter<'from' | 'to'>;
  readonly requiresAttention: Counter<'reason'>;
  readonly unknownStatus: Counter;
  readonly backwards: Counter;
  readonly resends: Counter;
  readonly contradictions: Counter<'kind' | 'published' | 'observed' | 'source'>;

  constructor(registry: Registry) {
    this.checks = new Counter({
      name: 'payouts_reconciler_checks_total',
      help: 'Rows the reconciler looked at, by their status',
      labelNames: ['status'],
      registers: [registry],
    });
    this.transitions = new Counter({
      name: 'payouts_reconciler_transitions_total',
      help: 'State changes found by the reconciler',
      labelNames: ['from', 'to'],
      registers: [registry],
    });
    this.requiresAttention = new Counter({
      name: 'payouts_requires_attention_total',
      help: 'Payouts handed to a person (REQUIRES_ATTENTION), by reason',
      labelNames: ['reason'],
      registers: [registry],
    });
    this.unknownStatus = new Counter({
      name: 'payouts_reconciler_unknown_provider_status_total',
      help: 'Status answers with a status this service does not know (kept, reported, polled again)',
      registers: [registry],
    });
    this.backwards = new Counter({
      name: 'payouts_reconciler_backwards_results_total',
      help: 'Status answers that would have moved a row backwards, or came after it moved on (ignored)',
      registers: [registry],
    });
    this.contradictions = new Counter({
      name: 'payouts_contradictions_total',
      help: 'Provider signals that contradict a published terminal state (recorded once per payout version and observed status; ADR 0018)',
      labelNames: ['kind', 'published', 'observed', 'source'],
      registers: [registry],
    });
    this.resends = new Counter({
      name: 'payouts_reconciler_resends_total',
      help: 'Initiations re-sent with the same transferId (after a crash, or a not-found status)',
      registers: [registry],
    });
  }
}
