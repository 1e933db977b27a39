import { Counter, type Registry } from 'prom-client';

/** What a shared rate budget reports: its reservations and the slots it could not use. */
export interface RateBudgetMetrics {
  /** One statement against the shared store: slots granted, none (no room yet), or an error. */
  reservation(result: 'granted' | 'empty' | 'error', slots: number): void;
  /** Reserved slots nobody sent in (a caller gave up, a pause): budget lost, never over-sent. */
  slotsLost(n: number): void;
}

export const noopRateBudgetMetrics: RateBudgetMetrics = {
  reservation: () => undefined,
  slotsLost: () => undefined,
};

/** prom-client implementation, registered on the process's one registry. */
export class PromRateBudgetMetrics implements RateBudgetMetrics {
  private readonly reservations: Counter<'result'>;
  private readonly slots: Counter<'outcome'>;

  constructor(registry: Registry) {
    this.reservations = new Counter({
      name: 'payouts_provider_rate_budget_reservations_total',
      help: 'Reservations of send slots from the shared rate budget, by result (granted, empty, error)',
      labelNames: ['result'],
      registers: [registry],
    });
    this.slots = new Counter({
      name: 'payouts_provider_rate_budget_slots_total',
      help: 'Send slots of the shared rate budget: granted to this instance, or lost (reserved, not used)',
      labelNames: ['outcome'],
      registers: [registry],
    });
  }

  reservation(result: 'granted' | 'empty' | 'error', slots: number): void {
    this.reservations.inc({ result });
    if (slots > 0) this.slots.inc({ outcome: 'granted' }, slots);
  }

  slotsLost(n: number): void {
    this.slots.inc({ outcome: 'lost' }, n);
  }
}
