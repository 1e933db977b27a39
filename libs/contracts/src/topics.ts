/** Logical topic names. Deployments may prefix them (KAFKA_TOPIC_PREFIX); see `topicName`. */
export const TOPICS = {
  commands: 'payouts.commands',
  commandsDlq: 'payouts.commands.dlq',
  events: 'payouts.events',
  queries: 'payouts.queries',
  queryReplies: 'payouts.query-replies',
} as const;

export type LogicalTopic = (typeof TOPICS)[keyof typeof TOPICS];

export function topicName(prefix: string, logical: string): string {
  return prefix ? `${prefix}.${logical}` : logical;
}
