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

/**
 * Broker answers kafkajs logs at error level although it recovers from them by itself (it rejoins
 * the group): an ordinary rebalance, a coordinator moving or loading. They need no person, so they
 * are logged at info (what kafkajs said stays in `kafkaLevel`); a consumer that cannot recover
 * crashes, and that is reported at error by the consumer's own handling.
 */
export const GROUP_MEMBERSHIP_ERRORS: readonly string[] = [
  'The group is rebalancing, so a rejoin is needed',
  'The coordinator is not aware of this member',
  'Specified group generation id is not valid',
  'This is not the correct coordinator for this group',
  'The group coordinator is not available',
  "The coordinator is loading and hence can't process requests for this group",
  'The group member needs to have a valid member id before actually entering a consumer group',
];

/**
 * kafkajs logs through our JSON logger (and so through its redaction), as `component: kafkajs`,
 * named once: a line with a key twice is refused by strict log pipelines.
 */
export function kafkaLogCreator(root: AppLogger): logCreator {
  const logger = root.child({ component: 'kafkajs' });
  return () =>
    ({ level, label, log }) => {
      const { message, ...extra } = log;
      const ordinary =
        level === logLevel.ERROR &&
        typeof extra['error'] === 'string' &&
        GROUP_MEMBERSHIP_ERRORS.includes(extra['error']);
      const method = ordinary ? 'info' : (LEVELS[level] ?? 'info');
      logger[method]({ kafkaLevel: label, ...extra }, message);
    };
}

export function createKafka(s: KafkaSettings, logger: AppLogger): Kafka {
  const config: KafkaConfig = {
    clientId: s.clientId,
    brokers: [...s.brokers],
    connectionTimeout: s.connectionTimeoutMs ?? 3_000,
    requestTimeout: s.requestTimeoutMs ?? 30_000,
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(logger),
    retry: { initialRetryTime: 200, retries: 8, maxRetryTime: 5_000 },
  };
  return new Kafka(config);
}
