// @ts-check
// Funds (issue 32): per provider account, a card with what was sent to the provider and is not
// settled, what waits to be sent (queued, held for approval, held for funds), whether the account
// holds for funds (ADR 0027) and the provider's available balance as last read ("not read yet"
// while the service has no reading); below the cards, each account's payouts held for funds, with
// Cancel… (it ends REJECTED, never sent) for a role that may.
import { call, describe, qs, seg } from './api.js';
import { confirmAction, h, link, mount, notice, payoutRoute, table, when } from './dom.js';

/**
 * @typedef {{ count: number, amount: string }} Figure
 * @typedef {{ accountId: string, inFlight: Figure, waiting: Figure, queued: Figure,
 *   awaitingApproval: Figure, heldForFunds: Figure & { oldestSince: string | null },
 *   hold: { threshold: string, fee: string, maxHoldSeconds: number } | null,
 *   balance: { available: string, readAt: string } | null }} AccountFunds
 * @typedef {{ subject: 'payout' | 'batch', accountId: string, transferId: string, amount: string,
 *   entries: number, heldSince: string | null, reason: string | null, createdAt: string }} Held
 */

const HELD_ROUTE = 'GET /ops/funds/{accountId}/held';
const CANCEL_ROUTE = 'POST /ops/payouts/{accountId}/{transferId}/cancel-hold';
/** The oldest held payouts listed per account. */
const HELD_PAGE = 100;

/** Why a payout waits, for a person. @type {Record<string, string>} */
const HOLD_REASONS = {
  insufficient_funds: 'the available balance has no room for it',
  no_balance_reading: 'no balance reading of the account yet',
};

/** @param {Figure} f */
const figure = (f) => [
  h('strong', { class: 'num' }, f.amount),
  ` (${f.count} ${f.count === 1 ? 'payout' : 'payouts'})`,
];

/**
 * A length of time for a person: "4d", "2h 45m", "12m", "40s".
 * @param {number} seconds
 */
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const parts = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor((s % 86_400) / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'm'],
  ].filter(([n]) => Number(n) > 0);
  if (parts.length === 0) return `${s}s`;
  return parts
    .slice(0, 2)
    .map(([n, u]) => `${n}${u}`)
    .join(' ');
}

/** Whether the account's balance was read after the payout was held. @param {AccountFunds} a @param {Held} x */
const readSince = (a, x) =>
  a.balance !== null && x.heldSince !== null && Date.parse(a.balance.readAt) > Date.parse(x.heldSince);

/** @param {string} at the figures' time @param {string} since */
const heldFor = (at, since) => duration((Date.parse(at) - Date.parse(since)) / 1000);

/** @param {AccountFunds} a @param {string} at */
function card(a, at) {
  const held = a.heldForFunds;
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
      h('dt', {}, '… held for funds'),
      h('dd', { 'data-field': 'held-for-funds' }, ...figure(held)),
      h('dt', {}, 'Held the longest'),
      h(
        'dd',
        { 'data-field': 'held-oldest' },
        held.oldestSince
          ? [h('strong', {}, heldFor(at, held.oldestSince)), ` (since ${when(held.oldestSince)})`]
          : h('span', { class: 'muted' }, 'nothing held'),
      ),
      h('dt', {}, 'Holding for funds'),
      h(
        'dd',
        { 'data-field': 'hold' },
        a.hold
          ? [
              h('strong', {}, 'on'),
              `: keeps ${a.hold.threshold} back, counts ${a.hold.fee} a transfer in fees, rejected after ${duration(a.hold.maxHoldSeconds)}`,
            ]
          : h('span', { class: 'muted' }, 'off'),
      ),
    ),
  );
}

/**
 * Cancel… of one held payout, after a confirmation: the service moves it to REJECTED
 * (cancelled_while_held) unless it was sent meanwhile.
 * @param {import('./view-types.js').ViewContext} ctx @param {Held} x @param {HTMLElement} result
 */
function cancelButton(ctx, x, result) {
  return h(
    'button',
    {
      type: 'button',
      class: 'cancel-hold',
      onclick: async () => {
        const ok = await confirmAction({
          title: `Cancel ${x.transferId} (${x.amount})?`,
          text: 'It was never sent: it ends REJECTED (cancelled_while_held) and is not sent when funds come. Upstream may pay it again under a new transferId. This cannot be undone.',
          ok: 'Cancel the payout',
        });
        if (!ok) return;
        try {
          /** @type {{ status: string }} */
          const r = await call('POST', `payouts/${seg(x.accountId)}/${seg(x.transferId)}/cancel-hold`);
          mount(result, notice('ok', `${x.transferId} cancelled: it is ${r.status}.`));
          setTimeout(() => ctx.current() && ctx.refresh(), 800);
        } catch (err) {
          mount(result, notice('error', `Cancel refused: ${describe(err)}`));
        }
      },
    },
    'Cancel…',
  );
}

/**
 * The account's oldest held payouts and batches, in a table.
 * @param {import('./view-types.js').ViewContext} ctx @param {AccountFunds} a @param {string} at
 * @param {Held[]} items @param {HTMLElement} result
 */
function heldList(ctx, a, at, items, result) {
  const mayCancel = ctx.caps.has(CANCEL_ROUTE) && ctx.me.may.has('cancel_held');
  const shown = items.reduce((n, x) => n + x.entries, 0);
  const more = a.heldForFunds.count > shown;
  return h(
    'section',
    { class: 'held', 'data-account': a.accountId },
    h('h2', {}, 'Held for funds: ', h('code', {}, a.accountId)),
    h(
      'p',
      { class: 'muted' },
      `${a.heldForFunds.amount} in ${a.heldForFunds.count} ${a.heldForFunds.count === 1 ? 'payout' : 'payouts'} (a batch counts as its entries), oldest first${more ? ` (the oldest ${items.length} shown)` : ''}. Each is sent once a balance reading shows room for it${a.hold ? `; held over ${duration(a.hold.maxHoldSeconds)}, it ends REJECTED (funds_hold_expired)` : ''}. A batch is held and sent whole.`,
    ),
    table(
      [
        {
          title: 'Payout',
          cell: (x) =>
            x.subject === 'payout'
              ? link(payoutRoute(x.accountId, x.transferId), h('code', {}, x.transferId))
              : [
                  h('code', {}, x.transferId),
                  ` (batch, ${x.entries} ${x.entries === 1 ? 'entry' : 'entries'})`,
                ],
        },
        { title: 'Amount', cell: (x) => x.amount, num: true },
        { title: 'Held since', cell: (x) => when(x.heldSince) },
        { title: 'Held for', cell: (x) => (x.heldSince ? heldFor(at, x.heldSince) : '') },
        {
          title: 'Why',
          // The reason recorded when it was held (a held payout is not written again): once the
          // account has been read since, no room is why it still waits.
          cell: (x) =>
            x.reason
              ? [
                  h('code', {}, x.reason),
                  HOLD_REASONS[x.reason] ? `: ${HOLD_REASONS[x.reason]}` : '',
                  x.reason === 'no_balance_reading' && readSince(a, x)
                    ? h('span', { class: 'muted' }, ' (when held; read since, still no room)')
                    : '',
                ]
              : '',
        },
        ...(mayCancel
          ? [
              {
                title: '',
                /** @param {Held} x */
                cell: (x) => (x.subject === 'payout' ? cancelButton(ctx, x, result) : ''),
              },
            ]
          : []),
      ],
      items,
      { class: 'held-table' },
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
  const holding = ctx.caps.has(HELD_ROUTE) ? funds.accounts.filter((a) => a.heldForFunds?.count > 0) : [];
  /** @type {Held[][]} */
  const held = await Promise.all(
    holding.map(
      async (a) =>
        /** @type {{ items: Held[] }} */ (
          await call('GET', `funds/${seg(a.accountId)}/held${qs({ limit: HELD_PAGE })}`)
        ).items,
    ),
  );
  if (!ctx.current()) return;
  const result = h('div', { id: 'funds-result' });
  mount(
    ctx.el,
    h('h1', {}, 'Funds'),
    h(
      'p',
      { class: 'muted' },
      `Per provider account, as of ${when(funds.at)}. Sent, not settled: the provider has it (or may have it) and has not said it is paid or failed. Waiting: accepted and not sent yet; what awaits approval may never be sent; what is held for funds is sent when the provider's available balance has room for it. A batch counts as its entries.`,
    ),
    h('div', { class: 'funds' }, ...funds.accounts.map((a) => card(a, funds.at))),
    result,
    ...holding.map((a, i) => heldList(ctx, a, funds.at, held[i] ?? [], result)),
  );
}
