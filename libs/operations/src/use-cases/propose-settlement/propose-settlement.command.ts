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

/** The path's payout and the body's `outcome`, `utr`, `note` and `version`. */
export function parseProposeSettlement(payout: PayoutRef, body: unknown): ProposeSettlementCommand {
  const i = bodyOf(body);
  const outcome = i['outcome'];
  if (outcome !== 'SUCCESS' && outcome !== 'FAILED') throw invalid('outcome must be SUCCESS or FAILED');
  // The state machine says where a person may settle a payout; both are allowed today.
  if (!canMove('REQUIRES_ATTENTION', outcome)) throw invalid(`REQUIRES_ATTENTION cannot become ${outcome}`);
  const version = i['version'];
  if (typeof version !== 'number' || !Number.isInteger(version))
    throw invalid('version (the payout version you saw) is required');
  const rawUtr = i['utr'];
  if (rawUtr !== undefined && rawUtr !== null && (typeof rawUtr !== 'string' || !UTR.test(rawUtr)))
    throw invalid('utr must be 6 to 35 letters or digits');
  const utr = typeof rawUtr === 'string' ? rawUtr : null;
  if (outcome === 'SUCCESS' && !utr) throw invalid('a SUCCESS settlement needs the UTR as evidence');
  const note = i['note'];
  if (typeof note !== 'string' || note.trim() === '' || note.length > MAX_NOTE)
    throw invalid(`note (the evidence) is required, at most ${MAX_NOTE} characters`);
  return { payout, outcome, utr, note: cleanNote(note), version };
}
