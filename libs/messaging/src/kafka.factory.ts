import { Kafka, logLevel, type KafkaConfig, type logCreator } from 'kafkajs';
import { type AppLogger } from '#observability';

export interface KafkaSettings {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** How long a request to a broker may take before kafkajs gives up on it. */
  readonly requestTimeoutMs?: number;
  readonly connectionTimeoutMs?: number;
}

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** kafkajs logs through our JSON logger (and so through its redaction). */
function pinoLogCreator(logger: AppLogger): logCreator {
  return () =>
    ({ level, label, log }) => {
      const { message, ...extra } = log;
      const method = LEVELS[level] ?? 'info';
      logger[method]({ component: 'kafkajs', kafkaLevel: label, ...extra }, message);
    };
}

export function createKafka(s: KafkaSettings, logger: AppLogger): Kafka {
  const config: KafkaConfig = {
    clientId: s.clientId,
    brokers: [...s.brokers],
    connectionTimeout: s.connectionTimeoutMs ?? 3_000,
    requestTimeout: s.requestTimeoutMs ?? 30_000,
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(logger.child({ component: 'kafkajs' })),
    retry: { initialRetryTime: 200, retries: 8, maxRetryTime: 5_000 },
  };
  return new Kafka(config);
}
