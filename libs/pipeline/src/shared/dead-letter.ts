import { createHmac, type KeyObject } from 'node:crypto';
import { type DeadLetterRecord } from '#ledger';
import { type DeadLetterMessage, type InboundMessage } from './ports.js';
import { idsNamedIn, scrubForDeadLetter, scrubText } from './scrub.js';

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

/** How dead letters are made: how much of a value is kept, and the key of their digest. */
export interface DeadLetterSettings {
  readonly maxValueBytes: number;
  /** DEAD_LETTER_DIGEST_KEY: the digest of the original bytes is keyed with it. */
  readonly digestKey: KeyObject;
}

/**
 * The digest an operator matches a producer's copy with (header `dlq-original-hmac-sha256`).
 * Keyed: the original holds what the value masks (a phone, an account number), and an unkeyed
 * SHA-256 of it gives the masked digits back to anyone trying the few candidates (10^8 for a
 * phone with two digits shown: minutes on one core). Without the key nothing can be tried.
 */
export function deadLetterDigest(key: KeyObject, original: Buffer | string): string {
  return createHmac('sha256', key).update(original).digest('hex');
}

/**
 * The dead letter of a message consumed from `topic`/`partition` (ADR 0007): its bytes scrubbed
 * and cut to `maxValueBytes`, its key scrubbed (unless it is one of the message's own ids), and
 * headers saying why and where it came from. The intake (commands) and the queries use the same
 * one, on the same topic.
 */
export function deadLetterOf(
  topic: string,
  partition: number,
  x: DeadLetterCause,
  settings: DeadLetterSettings,
): DeadLetterMessage {
  const maxValueBytes = settings.maxValueBytes;
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
  // A key that is the message's own id (its transferId, say) is an id, not personal data: kept
  // whole, so an operator finds the command it came from.
  const isId = keyText !== undefined && idsNamedIn(original.subarray(0, max).toString('utf8')).has(keyText);
  const key = keyText === undefined ? null : isId ? keyText : scrubText(keyText);
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
      'dlq-original-hmac-sha256': deadLetterDigest(settings.digestKey, original),
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
