import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { logLevel } from 'kafkajs';
import { createLogger } from '#observability';
import { GROUP_MEMBERSHIP_ERRORS, kafkaLogCreator } from './kafka.factory.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _e, cb) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  const log = kafkaLogCreator(createLogger({ level: 'debug', name: 'test', destination }))(logLevel.DEBUG);
  return { lines, log };
}

const entry = (level: logLevel, message: string, extra: Record<string, unknown> = {}) => ({
  namespace: 'Connection',
  level,
  label: level === logLevel.ERROR ? 'ERROR' : level === logLevel.WARN ? 'WARN' : 'INFO',
  log: { timestamp: '2026-11-24T00:00:00.000Z', logger: 'kafkajs', message, ...extra },
});

describe('kafkajs lines in our log (issue 24 finding 5)', () => {
  it('carry each key once: strict log pipelines refuse duplicate keys', () => {
    const { lines, log } = capture();
    log(entry(logLevel.WARN, 'Connection timeout', { broker: '127.0.0.1:9092' }));
    assert.equal(lines.length, 1);
    const line = lines[0] ?? '';
    assert.equal(line.match(/"component":/g)?.length, 1, line);
    assert.equal((JSON.parse(line) as { component: string }).component, 'kafkajs');
  });

  it('keep a real error at error level', () => {
    const { lines, log } = capture();
    log(entry(logLevel.ERROR, 'Crash: KafkaJSNumberOfRetriesExceeded', { error: 'Connection error' }));
    assert.equal((JSON.parse(lines[0] ?? '{}') as { level: string }).level, 'error');
  });

  for (const error of GROUP_MEMBERSHIP_ERRORS) {
    it(`log an ordinary group change at info, not error: "${error}"`, () => {
      const { lines, log } = capture();
      log(entry(logLevel.ERROR, 'Response Heartbeat(key: 12, version: 3)', { error, correlationId: 7 }));
      const parsed = JSON.parse(lines[0] ?? '{}') as { level: string; kafkaLevel: string };
      assert.equal(parsed.level, 'info', lines[0]);
      assert.equal(parsed.kafkaLevel, 'ERROR', 'what kafkajs said is kept');
    });
  }

  it('the list names the group-membership answers kafkajs recovers from by rejoining', () => {
    assert.ok(GROUP_MEMBERSHIP_ERRORS.includes('The group is rebalancing, so a rejoin is needed'));
  });
});
