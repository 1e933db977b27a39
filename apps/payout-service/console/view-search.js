// @ts-check
// Finding payouts: by account and transfer id (GET /ops/payouts/:accountId/:transferId), and, where
// the service has it, the filtered search with cursor pages and a CSV export.
import { call, describe, seg } from './api.js';
import { formValues, h, mount, notice, payoutRoute } from './dom.js';

/** @type {import('./view-types.js').View} */
export async function searchView(ctx) {
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
