import { maskDigitRuns } from '#observability';
import { invalid } from './refusals.js';

export const MAX_NOTE = 500;

/** Free text an operator types may still carry an account number: long digit runs are masked. */
export function cleanNote(v: string): string {
  return maskDigitRuns(v.trim());
}

/** An optional note on a decision: absent, null or empty is none. */
export function optionalNote(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > MAX_NOTE)
    throw invalid(`note must be text of at most ${MAX_NOTE} characters`);
  return cleanNote(v);
}

/** The JSON body's fields, or none when it is not an object. */
export const bodyOf = (b: unknown): Record<string, unknown> =>
  typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
