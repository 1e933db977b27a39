import { z } from 'zod';
import { canMove } from '#ledger';
import { type ProposedOutcome } from '../../proposal.repository.js';
import { bodyOf, cleanNote, MAX_NOTE } from '../shared/notes.js';
import { invalid } from '../shared/refusals.js';
import { type PayoutRef } from '../shared/refs.js';

const UTR = /^[A-Za-z0-9]{6,35}$/;

export interface ProposeSettlementCommand {
  readonly payout: PayoutRef;
  readonly outcome: ProposedOutcome;
  /** The provider's reference, the evidence of a SUCCESS. */
  readonly utr: string | null;
  /** The evidence, digit runs masked. */
  readonly note: string;
  /** The payout's version the operator saw: a proposal on a row that moved on is refused. */
  readonly version: number;
}

/**
 * The body: the one schema the request is checked with and the OpenAPI document shows
 * (`ProposalInput`). Other fields are ignored.
 */
export const proposalInput = z.looseObject({
  outcome: z.enum(['SUCCESS', 'FAILED']),
  version: z.int().describe('the payout version the operator saw'),
  utr: z.string().regex(UTR).nullable().optional().describe('required for SUCCESS'),
  note: z.string().max(MAX_NOTE).regex(/\S/).describe('the evidence'),
});

const REFUSALS: Readonly<Record<keyof typeof proposalInput.shape, string>> = {
  outcome: 'outcome must be SUCCESS or FAILED',
  version: 'version (the payout version you saw) is required',
  utr: 'utr must be 6 to 35 letters or digits',
  note: `note (the evidence) is required, at most ${MAX_NOTE} characters`,
};

/** The path's payout and the body's `outcome`, `utr`, `note` and `version`. */
export function parseProposeSettlement(payout: PayoutRef, body: unknown): ProposeSettlementCommand {
  const r = proposalInput.safeParse(bodyOf(body));
  const refused = (f: keyof typeof REFUSALS) => !r.success && r.error.issues.some((i) => i.path[0] === f);
  for (const f of ['outcome', 'version', 'utr'] as const) if (refused(f)) throw invalid(REFUSALS[f]);
  const i = bodyOf(body);
  const outcome = i['outcome'] as ProposedOutcome;
  // The state machine says where a person may settle a payout; both are allowed today.
  if (!canMove('REQUIRES_ATTENTION', outcome)) throw invalid(`REQUIRES_ATTENTION cannot become ${outcome}`);
  const utr = typeof i['utr'] === 'string' ? i['utr'] : null;
  if (outcome === 'SUCCESS' && !utr) throw invalid('a SUCCESS settlement needs the UTR as evidence');
  if (!r.success) throw invalid(REFUSALS.note);
  return { payout, outcome, utr, note: cleanNote(r.data.note), version: r.data.version };
}
