// @ts-check
// A payout's timeline: every state change from the durable history and every operator action
// (GET /ops/payouts/:accountId/:transferId/timeline, read once by the payout view).
import { h, mount, notice, statusBadge, table, when } from './dom.js';

/**
 * @typedef {{ at: string, from: string | null, to: string, version: number, cause: string,
 *   reason: string | null, statusCode: string | null, referenceId: string | null, utr: string | null,
 *   operatorId: string | null, approverId: string | null, proposalId: string | null }} HistoryEntry
 * @typedef {{ at: string, operatorId: string, operatorName?: string | null, via?: string | null,
 *   role: string, action: string, result: string, eventId: string | null, proposalId: string | null }} ActionEntry
 * @typedef {{ id: string, accountId: string, transferId: string, fromVersion: number, outcome: string,
 *   utr: string | null, note: string, proposedBy: string, proposedByName?: string, proposedVia?: string,
 *   proposedAt: string, state: string, decidedBy: string | null, decidedByName?: string | null,
 *   decidedAt: string | null, decisionNote: string | null }} Proposal
 * @typedef {{ payout: import('./view-payout.js').Payout, history: HistoryEntry[], actions: ActionEntry[],
 *   proposals: Proposal[] }} Timeline
 */

/**
 * @param {import('./view-types.js').ViewContext} _ctx
 * @param {HTMLElement} el
 * @param {Timeline | null} story null: the service has no history API
 */
export function timelineSection(_ctx, el, story) {
  if (!story) {
    mount(
      el,
      h('h2', {}, 'Timeline'),
      notice('off', 'Not available: this service has no history API (timeline) yet.'),
    );
    return;
  }
  mount(
    el,
    h('h2', {}, 'Timeline'),
    story.history.length === 0
      ? h('p', { class: 'empty' }, 'No recorded change yet.')
      : table(
          [
            { title: 'When', cell: (e) => when(e.at) },
            { title: 'From', cell: (e) => (e.from ? statusBadge(e.from) : '—') },
            { title: 'To', cell: (e) => statusBadge(e.to) },
            { title: 'Version', cell: (e) => e.version, num: true },
            { title: 'Cause', cell: (e) => e.cause },
            { title: 'Reason', cell: (e) => e.reason ?? '' },
            {
              title: 'Provider',
              cell: (e) => [e.statusCode, e.referenceId, e.utr].filter(Boolean).join(' · '),
            },
            {
              title: 'Operators',
              cell: (e) =>
                [e.operatorId, e.approverId ? `approved by ${e.approverId}` : null]
                  .filter(Boolean)
                  .join(', '),
            },
          ],
          story.history,
          { id: 'timeline-table' },
        ),
    h('h2', {}, 'Operator actions'),
    story.actions.length === 0
      ? h('p', { class: 'empty' }, 'None.')
      : table(
          [
            { title: 'When', cell: (a) => when(a.at) },
            {
              title: 'Operator',
              // The person (a token acts for its issuer), and how they came in.
              cell: (a) => `${a.operatorName ?? a.operatorId} (${a.role}${a.via ? `, ${a.via}` : ''})`,
            },
            { title: 'Action', cell: (a) => a.action },
            { title: 'Result', cell: (a) => a.result },
            { title: 'Proposal', cell: (a) => a.proposalId ?? '' },
          ],
          story.actions,
          { id: 'actions-table' },
        ),
  );
}
