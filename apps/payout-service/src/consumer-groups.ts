import { TOPICS } from '#contracts';
import { type ServiceConfig } from './service.config.js';

/** A consumed topic and the consumer group that consumes it. */
export interface ConsumerGroup {
  /** Logical topic (without the prefix), the handler's `@EventPattern`. */
  readonly topic: string;
  readonly groupId: string;
  /** Where a new group starts: commands from the beginning (none lost), queries from now. */
  readonly fromBeginning: boolean;
}

/**
 * One consumer group per consumed topic, so processes running different roles can share a
 * deployment: members of one group must subscribe to the same topics (kafkajs's group leader hands
 * the partitions of its own topics to every member, and a member without the handler drops them).
 * The commands group keeps its historical name. A new queries group starts at the end of the
 * topic: a query is a request someone is waiting for now, and answering days of old ones (some
 * ask the provider) helps nobody.
 */
export function consumerGroups(config: ServiceConfig): ConsumerGroup[] {
  const roles = new Set(config.pipeline.SERVICE_ROLES);
  const id = config.core.KAFKA_CLIENT_ID;
  return [
    ...(roles.has('intake')
      ? [{ topic: TOPICS.commands, groupId: `${id}.intake`, fromBeginning: true }]
      : []),
    ...(roles.has('queries')
      ? [{ topic: TOPICS.queries, groupId: `${id}.queries`, fromBeginning: false }]
      : []),
  ];
}
