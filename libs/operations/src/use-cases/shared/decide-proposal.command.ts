import { decisionNote } from './notes.js';

/** An approval or a rejection: the proposal (path) and the approver's optional note (body). */
export interface DecideProposalCommand {
  /** As the path gives it (an unknown one is not found, not invalid). */
  readonly proposalId: string;
  /** Digit runs masked; null: none. */
  readonly note: string | null;
}

export function parseDecideProposal(proposalId: string, body: unknown): DecideProposalCommand {
  return { proposalId, note: decisionNote(body) };
}
