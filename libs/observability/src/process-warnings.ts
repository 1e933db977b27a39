import { type AppLogger } from './logger.js';

/**
 * Process warnings go through the JSON logger instead of raw stderr. One is dropped: kafkajs 2.2
 * (requestQueue.scheduleCheckPendingRequests) arms a timer with a negative delay whenever its
 * queue is empty; Node 24 reports that as TimeoutNegativeWarning and clamps it to 1 ms, which is
 * what kafkajs meant. Everything else is logged at warn.
 */
export function routeProcessWarnings(logger: AppLogger): void {
  process.removeAllListeners('warning');
  process.on('warning', (w) => {
    if (w.name === 'TimeoutNegativeWarning') return;
    logger.warn({ warning: w.name, detail: w.message }, 'process warning');
  });
}
