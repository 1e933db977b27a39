// @ts-check
// What needs a person: payouts and batches in REQUIRES_ATTENTION (GET /ops/requires-attention).
import { call } from './api.js';
import { h, link, mount, payoutRoute, statusBadge, table, when } from './dom.js';

/**
 * @typedef {{ accountId: string, transferId: string, kind: string, status: string, amount: string,
 *   reason: string | null, statusCode: string | null, utr: string | null, checkCount: number,
 *   updatedAt: string, createdAt: string }} PayoutRow
 * @typedef {{ accountId: string, batchTransferId: string, status: string, totalAmount: string,
 *   entryCount: number, reason: string | null, updatedAt: string | null }} BatchRow
 */

/** @type {import('./view-types.js').View} */
export async function queueView(ctx) {
  /** @type {{ payouts: PayoutRow[], batches: BatchRow[] }} */
  const q = await call('GET', 'requires-attention?limit=200');
  if (!ctx.current()) return;
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
      'Payouts the service could not settle by itself. Open one to see its timeline, ask for a recheck, or propose how it ended.',
    ),
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
