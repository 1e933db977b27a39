import { Writable } from 'node:stream';
import { createLogger, type AppLogger } from '#observability';

/** A logger that keeps every line, so a test can assert on what was (and was not) logged. */
export function capturingLogger(level = 'info'): { logger: AppLogger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  return { logger: createLogger({ level, name: 'test', destination: sink }), lines };
}

/** The environment of a service under test: its own database, topics and an ephemeral port. */
export function testServiceEnv(opts: {
  databaseUrl: string;
  topicPrefix: string;
  brokers?: readonly string[];
  extra?: Record<string, string>;
}): Record<string, string> {
  return {
    DATABASE_URL: opts.databaseUrl,
    KAFKA_BROKERS: (opts.brokers ?? ['127.0.0.1:9092']).join(','),
    KAFKA_TOPIC_PREFIX: opts.topicPrefix,
    KAFKA_CLIENT_ID: `svc-${opts.topicPrefix}`,
    HTTP_PORT: '0',
    LOG_LEVEL: 'warn',
    ...opts.extra,
  };
}
