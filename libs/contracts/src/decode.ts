import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import {
  BATCH_FORMAT_REQUIRED,
  COMMAND_TYPES,
  commandSchemas,
  type CommandType,
} from './schemas/commands.schema.js';
import { RULE } from './schemas/common.schema.js';
import { eventSchema } from './schemas/events.schema.js';
import { querySchemas, queryReplySchema, type QueryType } from './schemas/queries.schema.js';
import { queryReplyHeadersSchema } from './reply-headers.js';
import {
  type Command,
  type CommandData,
  type CommandOf,
  type PayoutEvent,
  type Query,
  type QueryData,
  type QueryReply,
} from './types.js';

// ajv-formats is CommonJS with a default export; under nodenext it arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats(ajv);
// An annotation: the rule of a pattern or format in words, for the error text (describeErrors).
ajv.addKeyword({ keyword: RULE, schemaType: 'string' });

const commandValidators = new Map<string, ValidateFunction>(
  Object.entries(commandSchemas).map(([t, s]) => [t, ajv.compile(s)]),
);
const queryValidators = new Map<string, ValidateFunction>(
  Object.entries(querySchemas).map(([t, s]) => [t, ajv.compile(s)]),
);
const validateEvent = ajv.compile(eventSchema);
const validateReply = ajv.compile(queryReplySchema);
const validateReplyHeaders = ajv.compile(queryReplyHeadersSchema);

/** Why a message was dead-lettered. Stable strings: they are a metric label and a DLQ header. */
export type RejectReason =
  | 'empty'
  | 'oversized'
  | 'malformed_json'
  | 'not_an_object'
  | 'unknown_type'
  | 'schema_violation'
  | 'key_mismatch'
  /** Valid by the schema, yet the ledger's database refused to store it. */
  | 'database_refused'
  /** Valid, but for an account this service does not have (issue 30). */
  | 'unknown_account'
  /**
   * Valid, but refused by a rule of its account's provider API generation (issue 31): the
   * provider would refuse it there. `dlq-detail` names the rule and the field.
   */
  | 'api_generation_rule';

export type Decoded<T> =
  { ok: true; value: T } | { ok: false; reason: RejectReason; detail: string; type?: string };

export const MAX_COMMAND_BYTES = 512 * 1024;

/** The largest batch total the ledger can hold (NUMERIC(16,2)), in paise. */
export const MAX_BATCH_TOTAL_PAISE = 9_999_999_999_999_999n;

/** "12.5" -> 1250n. Only for amounts the schema has already accepted. */
function paise(amount: string): bigint {
  const [whole = '0', frac = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
}

/**
 * What a producer is told when a command carries a field this service does not know. Refused, not
 * ignored: an unknown field may change what the command means (ADR 0022).
 */
export const UNKNOWN_FIELD_POLICY =
  'unknown fields are refused, not ignored (ADR 0022): upgrade the service before producers send a new field';

/** The schema an error's `schemaPath` ("#/properties/data/.../pattern") points into, minus its keyword. */
function parentSchemaOf(root: unknown, schemaPath: string): Record<string, unknown> | undefined {
  const parts = schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1);
  let at: unknown = root;
  for (const raw of parts) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : undefined;
}

const FIELD_NAME_MAX = 64;

/**
 * Error text for a DLQ header, a dead-letter row or a log line: JSON pointers, field names and
 * rules in words (a pattern's `x-rule`, never its regular expression), never the offending
 * values (which may be a card token or an account number). Unknown fields are named together,
 * with the policy that refuses them.
 */
function describeErrors(validate: ValidateFunction | undefined): string {
  // In order; an object with unknown fields is one item naming them all.
  const items: Array<string | { unknownAt: string; names: string[] }> = [];
  const unknownAt = new Map<string, string[]>();
  for (const e of validate?.errors ?? []) {
    const where = e.instancePath || '/';
    switch (e.keyword) {
      case 'additionalProperties': {
        const name = String((e.params as { additionalProperty?: string }).additionalProperty);
        let names = unknownAt.get(where);
        if (!names) {
          names = [];
          unknownAt.set(where, names);
          items.push({ unknownAt: where, names });
        }
        names.push(name.length > FIELD_NAME_MAX ? `${name.slice(0, FIELD_NAME_MAX)}...` : name);
        break;
      }
      case 'required': {
        const missing = String((e.params as { missingProperty?: string }).missingProperty);
        items.push(`${where} must have required property '${missing}'`);
        break;
      }
      case 'pattern':
      case 'format': {
        const rule = parentSchemaOf(validate?.schema, e.schemaPath)?.[RULE];
        items.push(
          `${where} must be ${typeof rule === 'string' ? rule : `as the ${e.keyword} of the field`}`,
        );
        break;
      }
      case 'enum': {
        const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues ?? [];
        items.push(`${where} must be equal to one of the allowed values: ${allowed.map(String).join(', ')}`);
        break;
      }
      default:
        items.push(`${where} ${e.message ?? e.keyword}`);
    }
  }
  const text = [
    ...new Set(
      items.map((i) =>
        typeof i === 'string'
          ? i
          : `${i.unknownAt} has unknown field${i.names.length > 1 ? 's' : ''} ${i.names.join(', ')}`,
      ),
    ),
  ].slice(0, 10);
  if (unknownAt.size > 0) text.push(UNKNOWN_FIELD_POLICY);
  return text.join('; ');
}

/**
 * JSON is UTF-8 (RFC 8259): bytes that are not are refused, not replaced by U+FFFD, which would
 * let a corrupted command through with a mangled name. A byte order mark is kept, so JSON.parse
 * refuses it as before.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function parseJson(bytes: Buffer | null | undefined, max: number): Decoded<Record<string, unknown>> {
  if (!bytes || bytes.length === 0) return { ok: false, reason: 'empty', detail: 'message has no value' };
  if (bytes.length > max) return { ok: false, reason: 'oversized', detail: `${bytes.length} bytes > ${max}` };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, reason: 'malformed_json', detail: 'not valid UTF-8' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    // V8 quotes the text around the error ('..."cryptogram":AgAAA"...'): keep only the message.
    const message = e instanceof Error ? e.message : 'not JSON';
    const quote = message.search(/, (?:\.\.\.)?"/);
    return { ok: false, reason: 'malformed_json', detail: quote < 0 ? message : message.slice(0, quote) };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'not_an_object', detail: 'the message must be a JSON object' };
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}

/** Command types whose identity field (COMMAND_TYPES) is not a string of their data: none, or the next function fails to compile. */
type IdentityNotText = {
  [T in CommandType]: (typeof COMMAND_TYPES)[T] extends infer F extends keyof CommandData<T>
    ? CommandData<T>[F] extends string
      ? never
      : T
    : T;
}[CommandType];

/** The command's identity (the Kafka key): the field of its data that COMMAND_TYPES names. */
export function commandIdentity(c: Command): string {
  const field: [IdentityNotText] extends [never] ? (typeof COMMAND_TYPES)[CommandType] : never =
    COMMAND_TYPES[c.type];
  return (c.data as unknown as Record<string, string>)[field]!;
}

function batchViolations(c: Extract<Command, { type: 'payout.batch_transfer' }>): string | undefined {
  const required = BATCH_FORMAT_REQUIRED[c.data.batchFormat] ?? [];
  const seen = new Set<string>();
  const problems: string[] = [];
  c.data.entries.forEach((e, i) => {
    for (const field of required) {
      if ((e as unknown as Record<string, unknown>)[field] === undefined) {
        problems.push(`/data/entries/${i} ${field} is required for batchFormat ${c.data.batchFormat}`);
      }
    }
    if (seen.has(e.transferId)) problems.push(`/data/entries/${i} duplicate transferId in the batch`);
    seen.add(e.transferId);
  });
  const total = c.data.entries.reduce((sum, e) => sum + paise(e.amount), 0n);
  if (total > MAX_BATCH_TOTAL_PAISE) {
    problems.push('/data/entries the total of the amounts must not exceed 99999999999999.99');
  }
  return problems.length ? problems.slice(0, 10).join('; ') : undefined;
}

/** Decodes and validates a payouts.commands message. Never throws. */
export function decodeCommand(
  value: Buffer | null | undefined,
  key: Buffer | null,
  maxBytes = MAX_COMMAND_BYTES,
): Decoded<Command> {
  const json = parseJson(value, maxBytes);
  if (!json.ok) return json;
  const type = json.value['type'];
  if (typeof type !== 'string' || !(type in COMMAND_TYPES)) {
    return {
      ok: false,
      reason: 'unknown_type',
      detail: `type must be one of ${Object.keys(COMMAND_TYPES).join(', ')}`,
    };
  }
  const validate = commandValidators.get(type);
  if (!validate?.(json.value)) {
    return { ok: false, reason: 'schema_violation', detail: describeErrors(validate), type };
  }
  const command = json.value as unknown as Command;
  if (command.type === 'payout.batch_transfer') {
    const detail = batchViolations(command);
    if (detail) return { ok: false, reason: 'schema_violation', detail, type };
  }
  // One rule for every command: the Kafka key is its id. A missing key is refused like a wrong
  // one: its partition would be the producer's choice, and two commands for one id could be
  // read out of order on two partitions.
  const identity = commandIdentity(command);
  const k = key?.toString('utf8');
  if (k !== identity) {
    const field = COMMAND_TYPES[type as CommandType];
    const detail = k
      ? `Kafka key must equal data.${field}`
      : `no Kafka key: Kafka key must equal data.${field}`;
    return { ok: false, reason: 'key_mismatch', detail, type };
  }
  return { ok: true, value: command };
}

/**
 * Decodes the data of a command that was stored (the ledger keeps a payout's request as its
 * command's data, with its secrets sealed apart and put back by the caller), against the same
 * schema that admitted it. A stored request that no longer decodes (a schema change, a row
 * edited by hand) is an error for that row alone. Never throws; the detail names fields and
 * rules, never values.
 */
export function decodeCommandData<T extends CommandType>(type: T, data: unknown): Decoded<CommandData<T>> {
  const validate = commandValidators.get(type);
  const command = { type, data };
  if (!validate?.(command)) {
    return { ok: false, reason: 'schema_violation', detail: describeErrors(validate), type };
  }
  if (type === 'payout.batch_transfer') {
    const detail = batchViolations(command as unknown as CommandOf<'payout.batch_transfer'>);
    if (detail) return { ok: false, reason: 'schema_violation', detail, type };
  }
  // The schema has just checked it: this is the one place its type is asserted.
  return { ok: true, value: data as CommandData<T> };
}

/**
 * Validates the data of one query type against its runtime schema: the same check whoever
 * builds the request (the Kafka handler, the operations API). Never throws.
 */
export function decodeQueryData<T extends QueryType>(type: T, data: unknown): Decoded<QueryData<T>> {
  const validate = queryValidators.get(type);
  if (!validate?.({ type, queryId: 'check', data })) {
    return { ok: false, reason: 'schema_violation', detail: describeErrors(validate), type };
  }
  // The schema has just checked it: this is the one place its type is asserted.
  return { ok: true, value: data as QueryData<T> };
}

/** Decodes and validates a payouts.queries message. Never throws. */
export function decodeQuery(value: Buffer | null | undefined, maxBytes = 64 * 1024): Decoded<Query> {
  const json = parseJson(value, maxBytes);
  if (!json.ok) return json;
  const type = json.value['type'];
  const validate = typeof type === 'string' ? queryValidators.get(type) : undefined;
  if (!validate) return { ok: false, reason: 'unknown_type', detail: 'unknown query type' };
  if (!validate(json.value)) {
    return {
      ok: false,
      reason: 'schema_violation',
      detail: describeErrors(validate),
      type: String(type),
    };
  }
  return { ok: true, value: json.value as unknown as Query };
}

/** For producers' and tests' own checks: does this event match the published schema? */
export function eventProblems(e: unknown): string | undefined {
  return validateEvent(e) ? undefined : describeErrors(validateEvent);
}

export function replyProblems(r: unknown): string | undefined {
  return validateReply(r) ? undefined : describeErrors(validateReply);
}

export type { PayoutEvent, QueryReply };

/** For consumers' and tests' own checks: do a reply's Kafka headers (as strings) match the contract? */
export function replyHeaderProblems(headers: unknown): string | undefined {
  return validateReplyHeaders(headers) ? undefined : describeErrors(validateReplyHeaders);
}
