import { amountAtLeast, isAmount } from './decimal.js';

/** A request refused locally, with the code (legacy subCode or v2 error code) and message the provider would give. */
export interface Refusal {
  readonly code: string;
  readonly message: string;
}

/**
 * One documented field rule. Rules run in order and the first broken one is reported, the way
 * the provider reports one problem per answer.
 */
export type FieldRule<R> = (req: R) => Refusal | undefined;

export function firstRefusal<R>(req: R, rules: readonly FieldRule<R>[]): Refusal | undefined {
  for (const rule of rules) {
    const refusal = rule(req);
    if (refusal) return refusal;
  }
  return undefined;
}

const refuse = (code: string, message: string): Refusal => ({ code, message });

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

export const ID_PATTERN = /^[A-Za-z0-9_]+$/;
export const ID_WITH_HYPHEN_PATTERN = /^[A-Za-z0-9_-]+$/;
export const ALNUM_PATTERN = /^[A-Za-z0-9]+$/;
export const REMARKS_PATTERN = /^[A-Za-z0-9\s]*$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;

export function required<R>(get: (r: R) => unknown, subCode: string, message: string): FieldRule<R> {
  return (r) => (present(get(r)) ? undefined : refuse(subCode, message));
}

/** Applies only when the field is present; pair with `required` for mandatory fields. */
export function matches<R>(
  get: (r: R) => string | undefined,
  pattern: RegExp,
  maxLength: number,
  subCode: string,
  message: string,
): FieldRule<R> {
  return (r) => {
    const v = get(r);
    if (!present(v)) return undefined;
    return typeof v === 'string' && v.length <= maxLength && pattern.test(v)
      ? undefined
      : refuse(subCode, message);
  };
}

export function oneOf<R>(
  get: (r: R) => string | undefined,
  allowed: readonly string[],
  subCode: string,
  message: string,
): FieldRule<R> {
  return (r) => {
    const v = get(r);
    return !present(v) || (typeof v === 'string' && allowed.includes(v))
      ? undefined
      : refuse(subCode, message);
  };
}

/** Decimal string with at most two places and at least `min` (compared exactly, not as floats). */
export function amount<R>(
  get: (r: R) => string | undefined,
  min: string,
  subCode: string,
  message: string,
): FieldRule<R> {
  return (r) => {
    const v = get(r);
    if (!present(v)) return undefined;
    return isAmount(v) && amountAtLeast(v, min) ? undefined : refuse(subCode, message);
  };
}

export function check<R>(ok: (r: R) => boolean, subCode: string, message: string): FieldRule<R> {
  return (r) => (ok(r) ? undefined : refuse(subCode, message));
}
