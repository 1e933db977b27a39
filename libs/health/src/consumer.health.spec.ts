import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ConsumerFailures } from '#messaging';
import { CONSUMER_STOPPED_AFTER_MS, ConsumerHealthIndicator } from './consumer.health.js';

function setup() {
  const clock = { now: Date.parse('2026-11-27T12:00:00Z') };
  const failures = new ConsumerFailures(undefined, () => clock.now);
  const indicator = new ConsumerHealthIndicator(new HealthIndicatorService(), failures);
  const check = () =>
    indicator.check()['consumer'] as { status: string; message?: string } & Record<string, unknown>;
  return { clock, failures, check };
}

const nonRetriable = () =>
  Object.assign(new Error('The coordinator is not aware of this member'), {
    name: 'KafkaJSNonRetriableError',
  });

describe('consumer readiness: a group whose consumer is not running', () => {
  it('stays up while the consumer is being restarted, and turns down, naming the group, once it has been away too long', () => {
    const { clock, failures, check } = setup();
    failures.consumerCrashed('payouts.intake', nonRetriable());
    assert.equal(check().status, 'up', 'a restart takes a few seconds');
    clock.now += CONSUMER_STOPPED_AFTER_MS - 1;
    failures.consumerCrashed('payouts.intake', new Error('connect ECONNREFUSED'));
    assert.equal(check().status, 'up');
    clock.now += 1;
    const down = check();
    assert.equal(down.status, 'down');
    assert.equal(
      down.message,
      'payouts.intake: consumer not running since 2026-11-27T12:00:00.000Z, 2 crash(es) (Error)',
    );
    assert.deepEqual(down['consumers'], [
      { groupId: 'payouts.intake', since: '2026-11-27T12:00:00.000Z', crashes: 2, lastError: 'Error' },
    ]);
  });

  it('is up again once the consumer joined its group, and counts each recreation', () => {
    const { clock, failures, check } = setup();
    failures.consumerCrashed('payouts.intake', nonRetriable());
    failures.consumerCrashed('payouts.queries', nonRetriable());
    clock.now += CONSUMER_STOPPED_AFTER_MS;
    failures.consumerRecreated('payouts.intake');
    failures.consumerJoined('payouts.intake');
    const down = check();
    assert.equal(down.status, 'down', 'the queries group is still away');
    assert.match(down.message ?? '', /^payouts\.queries: .*KafkaJSNonRetriableError/);
    failures.consumerJoined('payouts.queries');
    assert.equal(check().status, 'up');
    assert.deepEqual([...failures.recreations()], [['payouts.intake', 1]]);
    // A later crash is timed from itself, not from the first one.
    failures.consumerCrashed('payouts.intake', nonRetriable());
    assert.equal(check().status, 'up');
    assert.deepEqual(
      failures.stoppedConsumers().map((s) => [s.groupId, s.crashes, s.since.getTime()]),
      [['payouts.intake', 1, clock.now]],
    );
  });

  it('names stalled partitions and a stopped group together', () => {
    const { clock, failures, check } = setup();
    for (let i = 0; i < 3; i++) failures.failed('payouts.commands', 2, new Error('x'));
    failures.consumerCrashed('payouts.intake', nonRetriable());
    clock.now += CONSUMER_STOPPED_AFTER_MS;
    const down = check();
    assert.match(
      down.message ?? '',
      /^payouts\.intake: consumer not running .*; payouts\.commands\[2\]: 3 failed/,
    );
  });
});
