// @ts-check
// Finding payouts. With the search API: filters (status, kind, account, dates, batch, UTR, transferId
// prefix) with cursor pages, and the same filters as a CSV export (masked, streamed by the service).
// Without it: a lookup by account and transfer id. The filters live in the route (#/search?...),
// so a search can be reloaded or shared; they never hold a secret.
import { call, describe, download, qs, seg } from './api.js';
import { formValues, h, link, mount, notice, payoutRoute, statusBadge, table, when } from './dom.js';
import { KINDS, STATUSES, SUB_STATES } from './vocabulary.js';

const SEARCH = 'GET /ops/payouts';
const EXPORT = 'GET /ops/payouts/export.csv';
const FILTERS = ['status', 'subState', 'kind', 'account', 'transferIdPrefix', 'utr', 'batch', 'from', 'to'];

/**
 * @typedef {{ accountId: string, transferId: string, batchTransferId: string | null, kind: string,
 *   status: string, version: number, amount: string, utr: string | null, referenceId: string | null,
 *   reason: string | null, subState?: string | null, beneficiary: Record<string, string> | null, createdAt: string,
 *   updatedAt: string }} Item
 */

/** @type {import('./view-types.js').View} */
export async function searchView(ctx) {
  if (!ctx.caps.has(SEARCH)) return lookupOnly(ctx);
  /** @type {Record<string, string>} */
  const filters = {};
  for (const f of FILTERS) {
    const v = ctx.query.get(f);
    if (v) filters[f] = v;
  }
  const results = h('div', { id: 'search-results' });
  /** @param {string} name @param {string} label @param {Record<string, string | number | boolean>} [attrs] */
  const input = (name, label, attrs = {}) =>
    h('label', {}, label, h('input', { name, value: filters[name] ?? '', ...attrs }));
  /** @param {string} name @param {string} label @param {string[]} options */
  const select = (name, label, options) =>
    h(
      'label',
      {},
      label,
      h(
        'select',
        { name },
        h('option', { value: '' }, 'any'),
        options.map((o) => h('option', { value: o, selected: filters[name] === o }, o)),
      ),
    );
  const form = h(
    'form',
    {
      class: 'filters',
      id: 'search',
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const v = formValues(/** @type {HTMLFormElement} */ (e.currentTarget));
        for (const k of ['from', 'to']) if (v[k]) v[k] = new Date(v[k]).toISOString();
        const next = `#/search${qs(v)}`;
        if (location.hash === next) ctx.refresh();
        else location.hash = next;
      },
    },
    input('transferIdPrefix', 'Transfer id starts with', { size: 18 }),
    select('status', 'Status', STATUSES),
    select('subState', 'At the provider', SUB_STATES),
    select('kind', 'Kind', KINDS),
    input('account', 'Account', { size: 10 }),
    input('utr', 'UTR', { size: 14 }),
    input('batch', 'Batch id', { size: 14 }),
    input('from', 'Created from', { type: 'datetime-local', value: localInput(filters['from']) }),
    input('to', 'Created before', { type: 'datetime-local', value: localInput(filters['to']) }),
    h('button', { type: 'submit', class: 'primary' }, 'Search'),
    ctx.caps.has(EXPORT)
      ? h(
          'button',
          { type: 'button', id: 'export', onclick: () => void exportCsv(filters, results) },
          'Export CSV',
        )
      : null,
  );
  mount(ctx.el, h('h1', {}, 'Search'), form, results);
  if (Object.keys(filters).length === 0) {
    mount(
      results,
      h('p', { class: 'muted' }, 'Newest first. Filters combine; leave them empty to list everything.'),
    );
  }
  const size = Number(ctx.query.get('limit') ?? '50');
  await page(ctx, filters, results, null, Number.isInteger(size) && size > 0 ? size : 50);
}

/**
 * One page, appended; "More" loads the next one from its cursor (stable order, newest first).
 * @param {import('./view-types.js').ViewContext} ctx @param {Record<string, string>} filters
 * @param {HTMLElement} el @param {string | null} cursor @param {number} size page size
 */
async function page(ctx, filters, el, cursor, size) {
  /** @type {{ items: Item[], nextCursor: string | null }} */
  let answer;
  try {
    answer = await call('GET', `payouts${qs({ ...filters, cursor, limit: size })}`);
  } catch (e) {
    mount(el, notice('error', describe(e)));
    return;
  }
  if (!ctx.current()) return;
  if (cursor === null) mount(el);
  el.querySelector('.more')?.remove();
  if (answer.items.length === 0 && cursor === null) {
    mount(el, h('p', { class: 'empty' }, 'No payout matches.'));
    return;
  }
  el.appendChild(
    table(
      [
        {
          title: 'Transfer',
          cell: (r) =>
            r.batchTransferId === null
              ? link(payoutRoute(r.accountId, r.transferId), h('code', {}, r.transferId))
              : h('code', {}, r.transferId),
        },
        { title: 'Batch', cell: (r) => r.batchTransferId ?? '' },
        { title: 'Account', cell: (r) => r.accountId },
        { title: 'Kind', cell: (r) => r.kind },
        { title: 'Amount', cell: (r) => r.amount, num: true },
        { title: 'Status', cell: (r) => statusBadge(r.status) },
        { title: 'At the provider', cell: (r) => r.subState ?? '' },
        { title: 'UTR', cell: (r) => r.utr ?? '' },
        {
          title: 'Beneficiary (masked)',
          cell: (r) => (r.beneficiary ? Object.values(r.beneficiary).join(' ') : ''),
        },
        { title: 'Created', cell: (r) => when(r.createdAt) },
      ],
      answer.items,
      { class: 'search-page' },
    ),
  );
  if (answer.nextCursor !== null) {
    const next = answer.nextCursor;
    el.appendChild(
      h(
        'div',
        { class: 'actions more' },
        h(
          'button',
          { type: 'button', id: 'more', onclick: () => void page(ctx, filters, el, next, size) },
          'More',
        ),
      ),
    );
  }
}

/** Fetched with the bearer header (a plain link could not carry it), then saved from memory. @param {Record<string, string>} filters @param {HTMLElement} el */
async function exportCsv(filters, el) {
  try {
    const blob = await download(`payouts/export.csv${qs(filters)}`);
    const href = URL.createObjectURL(blob);
    const a = h('a', {
      href,
      download: `payouts-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.csv`,
    });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  } catch (e) {
    el.prepend(notice('error', `Export refused: ${describe(e)}`));
  }
}

/** An ISO time as a datetime-local input's value (local time, minutes). @param {string | undefined} iso */
function localInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** @param {import('./view-types.js').ViewContext} ctx */
async function lookupOnly(ctx) {
  const result = h('div', { id: 'lookup-result' });
  const lookup = h(
    'form',
    {
      class: 'filters',
      id: 'lookup',
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const v = formValues(/** @type {HTMLFormElement} */ (e.currentTarget));
        const accountId = v['accountId'] ?? 'default';
        const id = v['id'] ?? '';
        try {
          await call('GET', `payouts/${seg(accountId)}/${seg(id)}`);
          location.hash = `#${payoutRoute(accountId, id)}`;
        } catch (err) {
          mount(result, notice('error', describe(err)));
        }
      },
    },
    h(
      'label',
      {},
      'Account',
      h('input', { name: 'accountId', value: ctx.query.get('accountId') ?? 'default' }),
    ),
    h('label', {}, 'Transfer id (exact)', h('input', { name: 'id', required: true, size: 32 })),
    h('button', { type: 'submit', class: 'primary' }, 'Open'),
  );
  mount(
    ctx.el,
    h('h1', {}, 'Search'),
    notice(
      'off',
      'Filtered search and CSV export are not available on this service yet: look a payout up by its id.',
    ),
    lookup,
    result,
  );
}
