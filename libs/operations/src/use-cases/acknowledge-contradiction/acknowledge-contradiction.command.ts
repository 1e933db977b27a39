import { maskDigitRuns } from '#observability';
import { invalid } from '../shared/refusals.js';
import { bodyOf } from '../shared/notes.js';

export interface AcknowledgeContradictionCommand {
  /** The contradiction's id as the path gives it (an unknown one is not found, not invalid). */
  readonly id: string;
  /** Digit runs masked; null: none given. */
  readonly note: string | null;
}

/** The path's id and the body's optional `note` (at most 500 characters). */
export function parseAcknowledgeContradiction(id: string, body: unknown): AcknowledgeContradictionCommand {
  const note = bodyOf(body)['note'];
  if (note !== undefined && (typeof note !== 'string' || note.length > 500))
    throw invalid('note must be a string of at most 500 characters');
  return { id, note: note === undefined ? null : maskDigitRuns(note) };
}
