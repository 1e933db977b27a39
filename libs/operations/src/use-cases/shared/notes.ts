import { z } from 'zod';
import { maskDigitRuns } from '#observability';
import { invalid } from './refusals.js';

export const MAX_NOTE = 500;

/** Free text an operator types may still carry an account number: long digit runs are masked. */
export function cleanNote(v: string): string {
  return maskDigitRuns(v.trim());
}

/**
 * The body of a decision (an approval, a rejection, an acknowledgement): the one schema it is
 * checked with and the OpenAPI document shows (`DecisionInput`). Other fields are ignored.
 */
export const decisionInput = z.looseObject({
  note: z.string().max(MAX_NOTE).nullable().optional().describe('digit runs of 9 or more are masked'),
});

/** The optional note of a decision's body: absent, null or empty is none. */
export function decisionNote(body: unknown): string | null {
  const r = decisionInput.safeParse(bodyOf(body));
  if (!r.success) throw invalid(`note must be text of at most ${MAX_NOTE} characters`);
  return r.data.note ? cleanNote(r.data.note) : null;
}

/** The JSON body's fields, or none when it is not an object. */
export const bodyOf = (b: unknown): Record<string, unknown> =>
  typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
