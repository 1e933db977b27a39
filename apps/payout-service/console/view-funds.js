// @ts-check
// Funds (issue 32): per provider account, a card with what was sent to the provider and is not
// settled, what waits to be sent (queued, and held for approval), and the provider's available
// balance as last read ("not read yet" while the service has no reading).
import { call } from './api.js';
import { h, mount, notice, when } from './dom.js';

/**
 * @typedef {{ count: number, amount: string }} Figure
 * @typedef {{ accountId: string, inFlight: Figure, waiting: Figure, queued: Figure,
 *   awaitingApproval: Figure, balance: { available: string, readAt: string } | null }} AccountFunds
 */

/** @param {Figure} f */
const figure = (f) => [
  h('strong', { class: 'num' }, f.amount),
  ` (${f.count} ${f.count === 1 ? 'payout' : 'payouts'})`,
];

/** @param {AccountFunds} a */
function card(a) {
  return h(
    'article',
    { class: 'funds-card', 'data-account': a.accountId },
    h('h2', {}, h('code', {}, a.accountId)),
    h(
      'dl',
      { class: 'fields' },
      h('dt', {}, 'Available at the provider'),
      h(
        'dd',
        { 'data-field': 'balance' },
        a.balance
          ? [h('strong', { class: 'num' }, a.balance.available), ` read ${when(a.balance.readAt)}`]
          : h('span', { class: 'muted' }, 'not read yet'),
      ),
      h('dt', {}, 'Sent, not settled'),
      h('dd', { 'data-field': 'in-flight' }, ...figure(a.inFlight)),
      h('dt', {}, 'Waiting to be sent'),
      h('dd', { 'data-field': 'waiting' }, ...figure(a.waiting)),
      h('dt', {}, '… queued'),
      h('dd', { 'data-field': 'queued' }, ...figure(a.queued)),
      h('dt', {}, '… awaiting approval'),
      h('dd', { 'data-field': 'awaiting-approval' }, ...figure(a.awaitingApproval)),
    ),
  );
}

/** @type {import('./view-types.js').View} */
export async function fundsView(ctx) {
  if (!ctx.caps.has('GET /ops/funds')) {
    mount(ctx.el, h('h1', {}, 'Funds'), notice('off', 'Not available: this service has no funds API.'));
    return;
  }
  /** @type {{ accounts: AccountFunds[], at: string }} */
  const funds = await call('GET', 'funds');
  if (!ctx.current()) return;
  mount(
    ctx.el,
    h('h1', {}, 'Funds'),
    h(
      'p',
      { class: 'muted' },
      `Per provider account, as of ${when(funds.at)}. Sent, not settled: the provider has it (or may have it) and has not said it is paid or failed. Waiting: accepted and not sent yet; what awaits approval may never be sent. A batch counts as its entries.`,
    ),
    h('div', { class: 'funds' }, ...funds.accounts.map(card)),
  );
}
