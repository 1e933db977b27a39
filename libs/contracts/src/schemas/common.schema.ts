/**
 * Building blocks shared by the command, query and event schemas. Amounts are decimal STRINGS
 * ("1250.50"): a JSON number would pass through a float in most consumers.
 *
 * Every `pattern` and `format` carries `x-rule`: the rule in words, which a dead letter's
 * `dlq-detail` shows instead of the regular expression (a spec fails on a pattern without one).
 * A rule is a noun phrase ("must be <rule>") and holds no run of 6 digits (the intake masks those
 * as account numbers).
 */
export const RULE = 'x-rule';
export const amountSchema = {
  type: 'string',
  pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,2})?$',
  [RULE]: 'a decimal string: up to 12 digits, no leading zero, then optionally . and 1 or 2 digits',
  description: 'Amount in major units (INR), as a decimal string with at most 2 decimals',
} as const;

/**
 * The provider's fee amounts (issue 32): decimal text like an amount, up to 4 decimals (a tax on a
 * charge need not round to paise at the provider; what it sends is kept exactly).
 */
export const FEE_AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,4})?$';
export const feeAmountSchema = {
  type: 'string',
  pattern: FEE_AMOUNT_PATTERN,
  [RULE]: 'a decimal string: up to 12 digits, no leading zero, then optionally . and 1 to 4 digits',
} as const;

/** What a command may ask to pay: more than zero (the ledger refuses 0, "0.0" and "0.00"). */
export const positiveAmountSchema = {
  type: 'string',
  pattern: '^(0\\.(0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,11}(\\.[0-9]{1,2})?)$',
  [RULE]:
    'a decimal string more than 0: up to 12 digits, no leading zero, then optionally . and 1 or 2 digits',
  description:
    'Amount in major units (INR), more than 0 and at most 999999999999.99, as a decimal string with at most 2 decimals',
} as const;

/**
 * Text Postgres can store: no NUL character (refused by text and jsonb) and no lone UTF-16
 * surrogate (refused by jsonb). Every free-text string of a command carries this pattern.
 */
export const STORABLE_TEXT = '^[^\\u0000\\uD800-\\uDFFF]*$';
export const STORABLE_TEXT_RULE = 'text without NUL characters or unpaired UTF-16 surrogates';
const NOT_AT_OR_SPACE = '[^@\\s\\u0000\\uD800-\\uDFFF]';

/** Free text of at most `maxLength` characters that the ledger can store. */
export const text = (maxLength: number, minLength?: number) =>
  ({
    type: 'string',
    ...(minLength ? { minLength } : {}),
    maxLength,
    pattern: STORABLE_TEXT,
    [RULE]: `${minLength ? `${minLength}-${maxLength}` : `at most ${maxLength}`} characters of ${STORABLE_TEXT_RULE}`,
  }) as const;

export const emailSchema = {
  type: 'string',
  maxLength: 200,
  pattern: `^${NOT_AT_OR_SPACE}+@${NOT_AT_OR_SPACE}+$`,
  [RULE]: 'an e-mail address of at most 200 characters: name@domain, no spaces',
} as const;

export const transferIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 40,
  pattern: '^[A-Za-z0-9_-]+$',
  [RULE]: '1-40 letters, digits, _ or -',
  description: 'Merchant transfer id: letters, digits, underscore, hyphen; at most 40 characters',
} as const;

export const accountIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_.-]+$',
  [RULE]: '1-64 letters, digits, _, . or -',
  description: 'Provider account (credentials set) to pay from; "default" when there is one',
} as const;

/**
 * Sent to the provider as the X-Request-Id header: only what a header carries unchanged. A CR, LF
 * or other control character, or a character past Latin-1, is refused by the HTTP client before
 * sending (issue 29); a space is left out too (a header value is trimmed).
 */
export const requestIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: '^[!-~]+$',
  [RULE]: '1-128 visible ASCII characters: no spaces, control characters or other letters',
  description: 'Caller request id, propagated to the provider as X-Request-Id',
} as const;

export const remarksSchema = {
  type: 'string',
  maxLength: 70,
  pattern: '^[A-Za-z0-9\\s]*$',
  [RULE]: 'at most 70 letters, digits or spaces',
} as const;
export const transferModeSchema = {
  type: 'string',
  enum: ['banktransfer', 'neft', 'imps', 'rtgs', 'upi', 'wallet_a', 'wallet_b'],
} as const;
export const ifscSchema = {
  type: 'string',
  pattern: '^[A-Z]{4}0[A-Z0-9]{6}$',
  [RULE]: 'an IFSC: 4 capital letters, 0, then 6 capital letters or digits',
} as const;
export const bankAccountSchema = {
  type: 'string',
  pattern: '^[A-Za-z0-9]{6,40}$',
  [RULE]: 'a bank account number: 6-40 letters or digits',
} as const;
export const vpaSchema = {
  type: 'string',
  minLength: 3,
  maxLength: 100,
  pattern: `^${NOT_AT_OR_SPACE}+@${NOT_AT_OR_SPACE}+$`,
  [RULE]: 'a VPA of 3-100 characters: name@handle, no spaces',
} as const;
export const beneIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 60,
  pattern: '^[A-Za-z0-9]+$',
  [RULE]: '1-60 letters or digits',
} as const;

/** A phone number as the provider takes it. */
export const phoneSchema = {
  type: 'string',
  pattern: '^[0-9+]{8,15}$',
  [RULE]: 'a phone number: 8-15 digits or +',
} as const;
