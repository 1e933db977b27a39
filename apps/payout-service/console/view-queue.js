// @ts-check
// What needs a person: payouts and batches in REQUIRES_ATTENTION, and contradictions of published
// terminal states no one has acknowledged (GET /ops/requires-attention; ADR 0018).
import { call, describe } from './api.js';
import { confirmAction, h, link, mount, notice, payoutRoute, statusBadge, table, when } from './dom.js';

/**
 * @typedef {{ accountId: string, transferId: string, kind: string, status: string, amount: string,
 *   reason: string | null, subState?: string | null, statusCode: string | null, utr: string | null, checkCount: number,
 *   updatedAt: string, createdAt: string }} PayoutRow
 * @typedef {{ accountId: string, batchTransferId: string, status: string, totalAmount: string,
 *   entryCount: number, reason: string | null, updatedAt: string | null }} BatchRow
 * @typedef {{ id: string, accountId: string, transferId: string, batchTransferId?: string | null, version: number,
 *   kind: string, published: string, observed: string, source: string, eventId: string, seenAt: string,
 *   acknowledgementProposedBy?: string | null, acknowledgementProposedByName?: string | null }} ContradictionRow
 */

/** @type {import('./view-types.js').View} */
export async function queueView(ctx) {
  /** @type {{ payouts: PayoutRow[], batches: BatchRow[], contradictions: ContradictionRow[] }} */
  const q = await call('GET', 'requires-attention?limit=200');
  if (!ctx.current()) return;
  const result = h('div', { id: 'contradiction-result' });
  // Two people (issue 30): one acknowledges, another (an approver) confirms; then it leaves the queue.
  /** @param {ContradictionRow} c @param {'acknowledge' | 'confirm'} step */
  const acknowledge = async (c, step) => {
    const ok = await confirmAction({
      title: step === 'acknowledge' ? 'Acknowledge contradiction' : 'Confirm the acknowledgement',
      text:
        step === 'acknowledge'
          ? `${c.transferId} was published ${c.published}; the provider now says ${c.observed}. Acknowledge only once the money is settled with the provider and upstream: another person then confirms, and it leaves the queue. The payout is not changed.`
          : `${c.acknowledgementProposedByName ?? ''} acknowledged that ${c.transferId} (published ${c.published}, now ${c.observed}) is settled outside. Confirm only if you checked it: it leaves the queue.`,
      ok: step === 'acknowledge' ? 'Acknowledge' : 'Confirm',
    });
    if (!ok) return;
    try {
      await call('POST', `contradictions/${encodeURIComponent(c.id)}/${step}`, {});
      ctx.refresh();
    } catch (e) {
      mount(result, notice('error', `Refused: ${describe(e)}`));
    }
  };
  /** @param {ContradictionRow} c */
  const ackCell = (c) => {
    if (!c.acknowledgementProposedBy)
      return ctx.me.may.has('acknowledge')
        ? h('button', { type: 'button', onclick: () => acknowledge(c, 'acknowledge') }, 'Acknowledge')
        : '';
    const waiting = `acknowledged by ${c.acknowledgementProposedByName ?? c.acknowledgementProposedBy}`;
    if (!ctx.me.may.has('decide') || ctx.me.id === c.acknowledgementProposedBy)
      return h('span', { class: 'muted' }, `${waiting}; another approver confirms`);
    return h(
      'span',
      {},
      `${waiting} `,
      h('button', { type: 'button', class: 'primary', onclick: () => acknowledge(c, 'confirm') }, 'Confirm'),
    );
  };
  mount(
    ctx.el,
    h(
      'div',
      { class: 'actions' },
      h('h1', {}, `Requires attention (${q.payouts.length} payouts, ${q.batches.length} batches)`),
      h('button', { type: 'button', onclick: () => ctx.refresh() }, 'Refresh'),
    ),
    h(
      'p',
      { class: 'muted' },
      'Payouts the service could not settle by itself, and terminal states the provider contradicted. Open one to see its timeline, ask for a recheck, or propose how it ended.',
    ),
    q.contradictions.length === 0
      ? null
      : [
          h('h2', {}, `Contradicted (${q.contradictions.length})`),
          h(
            'p',
            { class: 'muted' },
            'The provider now says otherwise than a terminal state already published: upstream may pay twice, or believe money moved that did not. Settle it outside, then acknowledge; a second person confirms.',
          ),
          result,
          table(
            [
              {
                title: 'Transfer',
                // A batch entry has no payout page: its id, and its batch in the next column.
                cell: (c) =>
                  c.batchTransferId
                    ? h('code', {}, c.transferId)
                    : link(payoutRoute(c.accountId, c.transferId), h('code', {}, c.transferId)),
              },
              { title: 'Batch', cell: (c) => (c.batchTransferId ? h('code', {}, c.batchTransferId) : '') },
              { title: 'Account', cell: (c) => c.accountId },
              { title: 'Published', cell: (c) => statusBadge(c.published) },
              { title: 'Provider says', cell: (c) => statusBadge(c.observed) },
              { title: 'Kind', cell: (c) => c.kind },
              { title: 'Seen by', cell: (c) => c.source },
              { title: 'Since', cell: (c) => when(c.seenAt) },
              {
                title: '',
                cell: ackCell,
              },
            ],
            q.contradictions,
            { id: 'queue-contradictions' },
          ),
        ],
    q.payouts.length === 0
      ? h('p', { class: 'empty' }, 'Nothing needs a person right now.')
      : table(
          [
            {
              title: 'Transfer',
              cell: (p) => link(payoutRoute(p.accountId, p.transferId), h('code', {}, p.transferId)),
            },
            { title: 'Account', cell: (p) => p.accountId },
            { title: 'Kind', cell: (p) => p.kind },
            { title: 'Amount', cell: (p) => p.amount, num: true },
            { title: 'Status', cell: (p) => statusBadge(p.status) },
            { title: 'Reason', cell: (p) => p.reason ?? '' },
            { title: 'At the provider', cell: (p) => p.subState ?? '' },
            { title: 'Checks', cell: (p) => p.checkCount, num: true },
            { title: 'Since', cell: (p) => when(p.updatedAt) },
          ],
          q.payouts,
          { id: 'queue-payouts' },
        ),
    q.batches.length === 0
      ? null
      : [
          h('h2', {}, 'Batches'),
          table(
            [
              { title: 'Batch', cell: (b) => h('code', {}, b.batchTransferId) },
              { title: 'Account', cell: (b) => b.accountId },
              { title: 'Entries', cell: (b) => b.entryCount, num: true },
              { title: 'Total', cell: (b) => b.totalAmount, num: true },
              { title: 'Status', cell: (b) => statusBadge(b.status) },
              { title: 'Reason', cell: (b) => b.reason ?? '' },
              { title: 'Since', cell: (b) => when(b.updatedAt) },
            ],
            q.batches,
            { id: 'queue-batches' },
          ),
        ],
  );
}
