// @ts-check
// Proposals (four eyes), open ones first for approvers: GET /ops/proposals?state=...
import { call, qs } from './api.js';
import { h, link, mount, notice, payoutRoute, table, when } from './dom.js';
import { decisionButtons } from './view-four-eyes.js';

/**
 * @typedef {import('./view-timeline.js').Proposal} Proposal
 */

const STATES = ['open', 'approved', 'rejected', 'stale', 'all'];

/** @type {import('./view-types.js').View} */
export async function proposalsView(ctx) {
  if (!ctx.caps.has('GET /ops/proposals')) {
    mount(
      ctx.el,
      h('h1', {}, 'Proposals'),
      notice('off', 'Not available: this service has no proposal API yet.'),
    );
    return;
  }
  const state = STATES.includes(ctx.query.get('state') ?? '') ? (ctx.query.get('state') ?? 'open') : 'open';
  const list = h('div', { id: 'proposals' });
  mount(
    ctx.el,
    h('h1', {}, 'Proposals'),
    h(
      'div',
      { class: 'actions' },
      STATES.map((s) =>
        h(
          'a',
          { href: `#/proposals?state=${s}`, class: s === state ? 'active' : null },
          s === state ? h('strong', {}, s) : s,
        ),
      ),
    ),
    list,
  );
  /** @param {string | null} cursor */
  const load = async (cursor) => {
    /** @type {{ items: Proposal[], nextCursor: string | null }} */
    const page = await call('GET', `proposals${qs({ state, cursor, limit: 50 })}`);
    if (!ctx.current()) return;
    list.querySelector('.more')?.remove();
    if (page.items.length === 0 && cursor === null) {
      mount(
        list,
        h('p', { class: 'empty' }, state === 'open' ? 'No proposal waits for a decision.' : 'None.'),
      );
      return;
    }
    list.appendChild(
      table(
        [
          {
            title: 'Payout',
            cell: (x) => link(payoutRoute(x.accountId, x.transferId), h('code', {}, x.transferId)),
          },
          { title: 'Outcome', cell: (x) => x.outcome },
          { title: 'UTR', cell: (x) => x.utr ?? '' },
          { title: 'Note', cell: (x) => x.note },
          {
            title: 'Proposed',
            cell: (x) =>
              `${x.proposedByName ?? x.proposedBy}${x.proposedVia?.startsWith('token:') ? ` via ${x.proposedVia}` : ''}, ${when(x.proposedAt)}`,
          },
          { title: 'State', cell: (x) => x.state },
          {
            title: '',
            cell: (x) => {
              if (x.state !== 'open')
                return x.decidedBy ? `${x.decidedByName ?? x.decidedBy}, ${when(x.decidedAt)}` : '';
              const result = h('span', {});
              return [
                decisionButtons(ctx, x, result, () => setTimeout(() => ctx.current() && ctx.refresh(), 800)),
                result,
              ];
            },
          },
        ],
        page.items,
      ),
    );
    if (page.nextCursor !== null) {
      const next = page.nextCursor;
      list.appendChild(
        h(
          'div',
          { class: 'actions more' },
          h('button', { type: 'button', onclick: () => void load(next) }, 'More'),
        ),
      );
    }
  };
  await load(null);
}
