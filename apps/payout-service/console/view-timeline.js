// @ts-check
// A payout's timeline: every state change from the durable history (GET .../timeline).
import { call, seg } from './api.js';
import { h, mount, notice, statusBadge, table, when } from './dom.js';

const ROUTE = 'GET /ops/payouts/{accountId}/{transferId}/timeline';

/**
 * @typedef {{ fromStatus: string | null, toStatus: string, version: number, cause: string,
 *   operatorId: string | null, reason: string | null, utr: string | null, referenceId: string | null,
 *   at: string }} TimelineEntry
 */

/**
 * @param {import('./view-types.js').ViewContext} ctx
 * @param {HTMLElement} el
 * @param {{ accountId: string, transferId: string }} p
 */
export async function timelineSection(ctx, el, p) {
  if (!ctx.caps.has(ROUTE)) {
    mount(
      el,
      h('h2', {}, 'Timeline'),
      notice('off', 'Not available: this service has no history API (timeline) yet.'),
    );
    return;
  }
  /** @type {{ entries: TimelineEntry[] }} */
  const t = await call('GET', `payouts/${seg(p.accountId)}/${seg(p.transferId)}/timeline`);
  if (!ctx.current()) return;
  mount(
    el,
    h('h2', {}, 'Timeline'),
    t.entries.length === 0
      ? h('p', { class: 'empty' }, 'No recorded change yet.')
      : table(
          [
            { title: 'When', cell: (e) => when(e.at) },
            { title: 'From', cell: (e) => (e.fromStatus ? statusBadge(e.fromStatus) : '—') },
            { title: 'To', cell: (e) => statusBadge(e.toStatus) },
            { title: 'Version', cell: (e) => e.version, num: true },
            { title: 'Cause', cell: (e) => e.cause },
            { title: 'Operator', cell: (e) => e.operatorId ?? '' },
            { title: 'Reason', cell: (e) => e.reason ?? '' },
            { title: 'UTR / reference', cell: (e) => [e.utr, e.referenceId].filter(Boolean).join(' / ') },
          ],
          t.entries,
          { id: 'timeline-table' },
        ),
  );
}
