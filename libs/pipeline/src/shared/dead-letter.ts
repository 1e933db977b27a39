import { createHash } from 'node:crypto';
import { type DeadLetterRecord } from '#ledger';
import { type DeadLetterMessage, type InboundMessage } from './ports.js';
import { scrubForDeadLetter, scrubText } from './scrub.js';

/** A message that goes to the dead-letter topic, why, and the detail (already safe to show). */
export interface DeadLetterCause {
  readonly m: InboundMessage;
  readonly reason: string;
  /** Safe for a header, a row and a log line: no value of the message. */
  readonly detail: string;
  readonly type?: string;
}

/** A dead letter's value is cut to at most this, so one always fits a produce request. */
export const DEAD_LETTER_MAX_VALUE_BYTES = 900_000;
const MAX_DEAD_LETTER_KEY_BYTES = 1_024;

/**
 * The dead letter of a message consumed from `topic`/`partition` (ADR 0007): its bytes scrubbed
 * and cut to `maxValueBytes`, its key scrubbed, and headers saying why and where it came from.
 * The intake (commands) and the queries use the same one, on the same topic.
 */
export function deadLetterOf(
  topic: string,
  partition: number,
  x: DeadLetterCause,
  maxValueBytes: number,
): DeadLetterMessage {
  const original = x.m.value ?? Buffer.alloc(0);
  // A full copy of an oversized message, plus these headers, may not fit under the broker's
  // size limit; a dead letter that cannot be sent would stall the partition. Keep its head.
  const max = Math.min(maxValueBytes, DEAD_LETTER_MAX_VALUE_BYTES);
  const cut = original.length > max;
  const { bytes, scrubbed } = scrubForDeadLetter(cut ? original.subarray(0, max) : original);
  // Scrubbing re-encodes text (an invalid UTF-8 byte becomes 3 bytes): the size that counts is
  // the one sent. What is cut from scrubbed bytes was already scrubbed.
  const truncated = cut || bytes.length > max;
  // The key is the producer's text too (an account number, for a key that is not the identity).
  const cutKey = x.m.key !== null && x.m.key.length > MAX_DEAD_LETTER_KEY_BYTES;
  const keyText = x.m.key?.subarray(0, MAX_DEAD_LETTER_KEY_BYTES).toString('utf8');
  const key = keyText === undefined ? null : scrubText(keyText);
  const keyScrubbed = key !== null && key !== keyText;
  return {
    key: key === null ? null : cutKey || keyScrubbed ? Buffer.from(key) : x.m.key,
    value: x.m.value ? bytes.subarray(0, max) : null,
    headers: {
      ...(truncated ? { 'dlq-truncated': 'true', 'dlq-original-bytes': String(original.length) } : {}),
      ...(cutKey ? { 'dlq-key-truncated': 'true' } : {}),
      'dlq-reason': x.reason,
      'dlq-detail': x.detail.slice(0, 1000),
      'dlq-original-topic': topic,
      'dlq-original-partition': String(partition),
      'dlq-original-offset': x.m.offset,
      'dlq-original-sha256': createHash('sha256').update(original).digest('hex'),
      'dlq-scrubbed': String(scrubbed || keyScrubbed),
    },
  };
}

/** The dead letter's mirror row (the `dead_letter` table), as operators list it. */
export function deadLetterRecordOf(topic: string, partition: number, x: DeadLetterCause): DeadLetterRecord {
  return {
    topic,
    partition,
    offset: x.m.offset,
    reason: x.reason,
    detail: { detail: x.detail, type: x.type ?? null },
  };
}
