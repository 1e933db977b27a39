/**
 * Building blocks shared by the command, query and event schemas. Amounts are decimal STRINGS
 * ("1250.50"): a JSON number would pass through a float in most consumers.
 */
export const amountSchema = {
  type: 'string',
  pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,2})?$',
  description: 'Amount in major units (INR), as a decimal string with at most 2 decimals',
} as const;

/** What a command may ask to pay: more than zero (the ledger refuses 0, "0.0" and "0.00"). */
export const positiveAmountSchema = {
  type: 'string',
  pattern: '^(0\\.(0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,11}(\\.[0-9]{1,2})?)$',
  description:
    'Amount in major units (INR), more than 0 and at most 999999999999.99, as a decimal string with at most 2 decimals',
} as const;

/**
 * Text Postgres can store: no NUL character (refused by text and jsonb) and no lone UTF-16
 * surrogate (refused by jsonb). Every free-text string of a command carries this pattern.
 */
export const STORABLE_TEXT = '^[^\\u0000\\uD800-\\uDFFF]*$';
const NOT_AT_OR_SPACE = '[^@\\s\\u0000\\uD800-\\uDFFF]';

/** Free text of at most `maxLength` characters that the ledger can store. */
export const text = (maxLength: number, minLength?: number) =>
  ({ type: 'string', ...(minLength ? { minLength } : {}), maxLength, pattern: STORABLE_TEXT }) as const;

export const emailSchema = {
  type: 'string',
  maxLength: 200,
  pattern: `^${NOT_AT_OR_SPACE}+@${NOT_AT_OR_SPACE}+$`,
} as const;

export const transferIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 40,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'Merchant transfer id: letters, digits, underscore, hyphen; at most 40 characters',
} as const;

export const accountIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_.-]+$',
  description: 'Provider account (credentials set) to pay from; "default" when there is one',
} as const;

export const requestIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: STORABLE_TEXT,
  description: 'Caller request id, propagated to the provider as X-Request-Id',
} as const;

export const remarksSchema = { type: 'string', maxLength: 70, pattern: '^[A-Za-z0-9\\s]*$' } as const;
export const transferModeSchema = {
  type: 'string',
  enum: ['banktransfer', 'neft', 'imps', 'rtgs', 'upi', 'wallet_a', 'wallet_b'],
} as const;
export const ifscSchema = { type: 'string', pattern: '^[A-Z]{4}0[A-Z0-9]{6}$' } as const;
export const bankAccountSchema = { type: 'string', pattern: '^[A-Za-z0-9]{6,40}$' } as const;
export const vpaSchema = {
  type: 'string',
  minLength: 3,
  maxLength: 100,
  pattern: `^${NOT_AT_OR_SPACE}+@${NOT_AT_OR_SPACE}+$`,
} as const;
export const beneIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 60,
  pattern: '^[A-Za-z0-9]+$',
} as const;
