import { z } from 'zod';
import { maskDigitRuns } from '#observability';
import { invalid } from '../shared/refusals.js';
import { bodyOf, MAX_NOTE } from '../shared/notes.js';

export interface AcknowledgeContradictionCommand {
  /** The contradiction's id as the path gives it (an unknown one is not found, not invalid). */
  readonly id: string;
  /** Digit runs masked; null: none given. */
  readonly note: string | null;
}

/**
 * The body of an acknowledgement or its confirmation: the one schema it is checked with and the
 * OpenAPI document shows (`AcknowledgementInput`). Other fields are ignored.
 */
export const acknowledgementInput = z.looseObject({
  note: z.string().max(MAX_NOTE).optional().describe('digit runs of 9 or more are masked'),
});

/** The path's id and the body's optional `note` (at most 500 characters). */
export function parseAcknowledgeContradiction(id: string, body: unknown): AcknowledgeContradictionCommand {
  const r = acknowledgementInput.safeParse(bodyOf(body));
  if (!r.success) throw invalid(`note must be a string of at most ${MAX_NOTE} characters`);
  return { id, note: r.data.note === undefined ? null : maskDigitRuns(r.data.note) };
}
