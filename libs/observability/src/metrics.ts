import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The one Prometheus registry of a process. Libraries register their metrics on it through the
 * METRICS_REGISTRY token; /metrics serves it. Labels never carry ids, amounts or personal data.
 */
export function createMetricsRegistry(defaultLabels: Record<string, string> = {}): Registry {
  const registry = new Registry();
  registry.setDefaultLabels(defaultLabels);
  collectDefaultMetrics({ register: registry, prefix: 'payouts_' });
  return registry;
}
