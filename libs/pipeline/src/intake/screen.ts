import { type KeyObject } from 'node:crypto';
import { ProviderPort } from '#provider-client';
import {
  type Command,
  type ProviderApi,
  commandIdentity,
  decodeCommand,
  MAX_COMMAND_BYTES,
  type RejectReason,
} from '#contracts';
import { canonicalRequest, type DeadLetterRecord, type SecretsCipher } from '#ledger';
import { ACCOUNT_MIN_DIGITS, maskDigitRuns } from '#observability';
import { type DeadLetterMessage, type InboundMessage } from '../shared/ports.js';
import { deadLetterOf, deadLetterRecordOf } from '../shared/dead-letter.js';

/*
 * Intake's first half: each message of a Kafka batch is either a valid command for one of this
 * service's accounts, which its account's API generation can send, or a dead letter with a reason.
 * Nothing here touches the ledger; intake.service.ts records what passes.
 */

/** A command that passed: its account, identity and the request hash idempotency compares. */
export interface Valid {
  message: InboundMessage;
  command: Command;
  accountId: string;
  identity: string;
  canonical: string;
  hash: string;
  isBatch: boolean;
}

/** A message that goes to the DLQ, and why. */
export interface Dead {
  m: InboundMessage;
  reason: RejectReason;
  detail: string;
  type?: string;
}

export interface ScreenOptions {
  readonly defaultAccountId: string;
  /** The accounts this service has: a command naming another is dead-lettered (unknown_account). */
  readonly knownAccounts: ReadonlySet<string>;
  readonly cipher: Pick<SecretsCipher, 'hash'>;
  /** The generation an account sends on now: a command a rule of it refuses is dead-lettered. */
  readonly apiOf: (accountId: string) => ProviderApi;
  readonly maxCommandBytes?: number;
}

/** The messages of one Kafka batch, in order, as valid commands and dead letters. */
export function screen(
  messages: readonly InboundMessage[],
  o: ScreenOptions,
): { valid: Valid[]; dead: Dead[] } {
  const valid: Valid[] = [];
  const dead: Dead[] = [];
  for (const m of messages) {
    const r = decodeCommand(m.value, m.key, o.maxCommandBytes);
    if (!r.ok) {
      dead.push({ m, reason: r.reason, detail: r.detail, type: r.type });
      continue;
    }
    const accountId = r.value.accountId ?? o.defaultAccountId;
    if (!o.knownAccounts.has(accountId)) {
      // Admitted, it could only fail at the provider and wait for a person; the producer has it wrong.
      const detail = `accountId is not one of this service's accounts (PROVIDER_ACCOUNT_ID, PROVIDER_ACCOUNTS)`;
      dead.push({ m, reason: 'unknown_account', detail, type: r.value.type });
      continue;
    }
    // What the account's generation would refuse at the provider is refused here, named, and
    // nothing is stored: the producer can send it again, corrected, under the same id.
    const refusal = ProviderPort.ruleRefusing(o.apiOf(accountId), r.value);
    if (refusal) {
      dead.push({ m, reason: 'api_generation_rule', detail: refusal.reason, type: r.value.type });
      continue;
    }
    const canonical = canonicalRequest(accountId, r.value);
    valid.push({
      message: m,
      command: r.value,
      accountId,
      identity: commandIdentity(r.value),
      canonical,
      hash: o.cipher.hash(canonical),
      isBatch: r.value.type === 'payout.batch_transfer',
    });
  }
  return { valid, dead };
}

/**
 * A reason's detail, safe for a header, a row and a log line. Details that may quote the message
 * (a schema rule, a parse error) have digit runs masked as account numbers; the ones the intake
 * writes itself from counts (`oversized`: "1048300 bytes > 524288") hold no input and stay readable.
 */
const OWN_TEXT: ReadonlySet<RejectReason> = new Set([
  'empty',
  'oversized',
  'not_an_object',
  'unknown_account',
]);
const safeDetail = (reason: RejectReason, detail: string) =>
  OWN_TEXT.has(reason) ? detail : maskDigitRuns(detail, ACCOUNT_MIN_DIGITS);

/** The DLQ message of a dead letter (its detail made safe). */
export function intakeDeadLetter(
  topic: string,
  partition: number,
  x: Dead,
  o: { readonly maxCommandBytes?: number; readonly deadLetterKey: KeyObject },
): DeadLetterMessage {
  return deadLetterOf(
    topic,
    partition,
    { ...x, detail: safeDetail(x.reason, x.detail) },
    { maxValueBytes: o.maxCommandBytes ?? MAX_COMMAND_BYTES, digestKey: o.deadLetterKey },
  );
}

/** The mirror row of a dead letter (its detail made safe). */
export function intakeDeadLetterRecord(topic: string, partition: number, x: Dead): DeadLetterRecord {
  return deadLetterRecordOf(topic, partition, { ...x, detail: safeDetail(x.reason, x.detail) });
}
