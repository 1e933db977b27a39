import { approvalView, type ApprovalView } from '../../approvals.views.js';
import { MAX_PAGE } from '../../search.js';
import { type OperationsPorts } from '../operations.ports.js';
import { invalid, notFound } from '../shared/refusals.js';

export interface ListApprovalsCommand {
  readonly accountId: string | null;
  readonly limit: number;
  /** The last hold id of the previous page. */
  readonly afterId: string | null;
}

/** `?accountId=`, `?limit=` (default 50), `?after=` (the last holdId of the previous page). */
export function parseListApprovals(q: Record<string, unknown>): ListApprovalsCommand {
  const one = (k: string): string | undefined => {
    const v = q[k];
    if (v !== undefined && typeof v !== 'string') throw invalid(`${k} is given more than once`);
    return v === '' ? undefined : v;
  };
  const limit = one('limit') === undefined ? 50 : Number(one('limit'));
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw invalid(`limit must be an integer from 1 to ${MAX_PAGE}`);
  const after = one('after');
  if (after !== undefined && !/^\d{1,19}$/.test(after)) throw invalid('after must be a holdId');
  return { accountId: one('accountId') ?? null, limit, afterId: after ?? null };
}

/** Payouts and batches waiting for approval (issue 30), oldest first. */
export class ListApprovals {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'approvals'>) {}

  async execute(c: ListApprovalsCommand): Promise<{ items: ApprovalView[]; next: string | null }> {
    const approvals = this.d.approvals;
    if (!approvals) return { items: [], next: null };
    const rows = await approvals.waiting(this.d.pool, {
      ...(c.accountId ? { accountId: c.accountId } : {}),
      ...(c.afterId ? { afterId: c.afterId } : {}),
      limit: c.limit,
    });
    return {
      items: rows.map((h) => approvalView(h)),
      next: rows.length === c.limit ? rows[rows.length - 1]!.id : null,
    };
  }
}

/** One payout's or batch's latest hold, with every decision on it. */
export class GetApproval {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'approvals'>) {}

  async execute(ref: {
    subject: 'payout' | 'batch';
    accountId: string;
    transferId: string;
  }): Promise<ApprovalView> {
    const hold = await this.d.approvals?.find(this.d.pool, ref.subject, ref.accountId, ref.transferId);
    if (!hold || !this.d.approvals) throw notFound(`no approval hold for ${ref.subject} ${ref.transferId}`);
    return approvalView(hold, await this.d.approvals.decisions(this.d.pool, hold.id));
  }
}
