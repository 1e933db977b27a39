import { type OutboxInsert } from './outbox.types.js';

/** The prefix of the outbox's logical decoding messages; the relay ignores any other. */
export const WAL_MESSAGE_PREFIX = 'payouts.outbox';

/** What the relay needs besides the payload, as the first line of a message. */
interface Envelope {
  /** message key */ readonly k: string;
  /** event id */ readonly i: string;
  /** event type */ readonly t: string;
  /** logical topic */ readonly o: string;
  /** headers */ readonly h: Readonly<Record<string, string>>;
}

/** One event as decoded from the WAL, in the order it was written. */
export interface WalEvent {
  readonly messageKey: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly topic: string;
  /** The event as the JSON text the writer made: sent as it is. */
  readonly payload: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The message's own LSN, for logs and as its id while it is in flight. */
  readonly lsn: string;
}

/**
 * A message's content: the routing fields as one line of JSON, a newline, then the payload's JSON.
 * JSON.stringify never writes a raw newline, so the first one ends the envelope; the payload is
 * never parsed by the relay (nor by PostgreSQL: it is text to it).
 */
export function encodeWalMessage(e: OutboxInsert): string {
  const envelope: Envelope = {
    k: e.messageKey,
    i: e.eventId,
    t: e.eventType,
    o: e.topic,
    h: e.headers ?? {},
  };
  return `${JSON.stringify(envelope)}\n${JSON.stringify(e.payload)}`;
}

export function decodeWalMessage(content: Uint8Array, lsn: string): WalEvent {
  const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const nl = buf.indexOf(0x0a);
  if (nl < 0) throw new Error(`outbox message at ${lsn} has no envelope line`);
  const env = JSON.parse(buf.toString('utf8', 0, nl)) as Partial<Envelope>;
  if (
    typeof env.k !== 'string' ||
    typeof env.i !== 'string' ||
    typeof env.t !== 'string' ||
    typeof env.o !== 'string' ||
    typeof env.h !== 'object' ||
    env.h === null
  )
    throw new Error(`outbox message at ${lsn} has an invalid envelope`);
  return {
    messageKey: env.k,
    eventId: env.i,
    eventType: env.t,
    topic: env.o,
    headers: env.h,
    payload: buf.toString('utf8', nl + 1),
    lsn,
  };
}

/** An LSN ('16/B374D848') as a number of bytes, for comparisons and arithmetic. */
export function lsnToBigInt(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  if (hi === undefined || lo === undefined) throw new Error(`not an LSN: ${lsn}`);
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

export function bigIntToLsn(n: bigint): string {
  return `${(n >> 32n).toString(16).toUpperCase()}/${(n & 0xffffffffn).toString(16).toUpperCase()}`;
}
