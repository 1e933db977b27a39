import { decisionNote } from '../shared/notes.js';

/** A person's approval or rejection of a held payout or batch (issue 30). */
export interface DecideApprovalCommand {
  readonly subject: 'payout' | 'batch';
  readonly accountId: string;
  /** The payout's transferId or the batch's batchTransferId. */
  readonly transferId: string;
  readonly decision: 'approve' | 'reject';
  /** Digit runs masked; null: none. */
  readonly note: string | null;
}

export function parseDecideApproval(
  ref: Pick<DecideApprovalCommand, 'subject' | 'accountId' | 'transferId' | 'decision'>,
  body: unknown,
): DecideApprovalCommand {
  return { ...ref, note: decisionNote(body) };
}
