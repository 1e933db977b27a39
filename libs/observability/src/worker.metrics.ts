import { Counter, type Registry } from 'prom-client';
import { type WorkerMetricsPort } from './poller.js';

/** The polling workers' failed steps (ADR 0025), one counter for all, by worker. */
export class WorkerMetrics implements WorkerMetricsPort {
  private readonly failures: Counter<'worker'>;

  constructor(registry: Registry) {
    this.failures = new Counter({
      name: 'payouts_worker_failures_total',
      help: 'Failed steps of the polling workers (each is retried after a back-off), by worker',
      labelNames: ['worker'],
      registers: [registry],
    });
  }

  failed(worker: string): void {
    this.failures.inc({ worker });
  }
}
