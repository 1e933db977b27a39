import { TOPICS } from '#contracts';

/**
 * Where query replies may go (QUERY_REPLY_TOPICS): logical topic names, each exact or, ending in
 * `*`, a prefix. A reply is written with the service's credentials, so a `replyTo` naming any
 * topic would let a producer on payouts.queries write to topics it may not (payouts.events, the
 * commands): only these are taken, and never the service's own.
 */
export interface ReplyTopics {
  readonly exact: ReadonlySet<string>;
  readonly prefixes: readonly string[];
}

/** The topics the service consumes or publishes itself: never a reply's, whatever is configured. */
export const OWN_TOPICS: readonly string[] = [
  TOPICS.commands,
  TOPICS.commandsDlq,
  TOPICS.events,
  TOPICS.queries,
];

/** Kafka's rule for a topic name. */
const TOPIC_NAME = /^[A-Za-z0-9._-]{1,249}$/;

const legal = (t: string) => TOPIC_NAME.test(t) && t !== '.' && t !== '..';

/** QUERY_REPLY_TOPICS read, or every problem with it (each names the entry; no secret here). */
export function parseReplyTopics(spec: string): { topics: ReplyTopics; problems: string[] } {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  const problems: string[] = [];
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) problems.push('name at least one topic (the default is payouts.query-replies)');
  for (const entry of entries) {
    const isPrefix = entry.endsWith('*');
    const name = isPrefix ? entry.slice(0, -1) : entry;
    if (isPrefix && name.length === 0) {
      problems.push('"*" would allow every topic, the service\'s own included');
      continue;
    }
    if (!legal(name)) {
      problems.push(`"${entry}" is not a topic name (letters, digits, . _ -; at most 249)`);
      continue;
    }
    const own = OWN_TOPICS.filter((t) => (isPrefix ? t.startsWith(name) : t === name));
    if (own.length > 0) {
      problems.push(`"${entry}" would allow the service's own topic ${own.join(', ')}`);
      continue;
    }
    if (isPrefix) prefixes.push(name);
    else exact.add(name);
  }
  return { topics: { exact, prefixes }, problems };
}

/**
 * Why a reply may not go to `logical` (under the deployment's topic prefix), or undefined when
 * it may. The reason names the topic: a producer's own choice, and never personal data.
 */
export function replyTopicRefusal(
  allowed: ReplyTopics,
  logical: string,
  topicPrefix: string,
): string | undefined {
  const shown = JSON.stringify(logical.slice(0, 100));
  const physical = topicPrefix ? `${topicPrefix}.${logical}` : logical;
  if (!legal(logical) || !legal(physical)) return `replyTo ${shown} is not a topic name`;
  if (OWN_TOPICS.includes(logical))
    return `replyTo ${shown} is not an allowed reply topic (the service's own)`;
  if (allowed.exact.has(logical) || allowed.prefixes.some((p) => logical.startsWith(p))) return undefined;
  return `replyTo ${shown} is not an allowed reply topic (QUERY_REPLY_TOPICS)`;
}
