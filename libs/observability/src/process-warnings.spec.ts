import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from './logger.js';
import { routeProcessWarnings } from './process-warnings.js';

describe('routeProcessWarnings', () => {
  it('logs warnings as JSON and drops only the known kafkajs timer warning', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(c: Buffer, _e, cb) {
        lines.push(c.toString());
        cb();
      },
    });
    const saved = process.listeners('warning');
    try {
      routeProcessWarnings(createLogger({ level: 'info', name: 't', destination: sink }));
      process.emitWarning('negative', 'TimeoutNegativeWarning');
      process.emitWarning('something else', 'DeprecationWarning');
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.removeAllListeners('warning');
      for (const l of saved) process.on('warning', l);
    }
    const text = lines.join('');
    assert.match(text, /DeprecationWarning/);
    assert.doesNotMatch(text, /TimeoutNegativeWarning/);
  });
});
