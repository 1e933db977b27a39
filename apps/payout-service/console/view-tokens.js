// @ts-check
// Automation tokens (an approver's): issue one (its secret shown once, here only), list them
// (never a secret), revoke one (POST, GET and DELETE /ops/tokens). Each expires; revoking takes
// effect on the next request, on every instance.
import { call, describe, seg } from './api.js';
import { confirmAction, formValues, h, mount, notice, table, when } from './dom.js';

/**
 * @typedef {{ id: string, name: string, role: string, createdBy: string, createdByName: string, createdAt: string,
 *   expiresAt: string, lastUsedAt: string | null, revokedAt: string | null, revokedBy: string | null,
 *   revokedByName: string | null }} OpsToken
 */

/** @param {OpsToken} t */
const stateOf = (t) => (t.revokedAt ? 'revoked' : Date.parse(t.expiresAt) <= Date.now() ? 'expired' : 'live');

/** @type {import('./view-types.js').View} */
export async function tokensView(ctx) {
  if (!ctx.me.may.has('tokens')) {
    mount(
      ctx.el,
      h('h1', {}, 'Tokens'),
      notice('off', `Your role (${ctx.me.role ?? ''}) may not manage tokens.`),
    );
    return;
  }
  const issued = h('div', { id: 'token-issued' });
  const list = h('div', { id: 'token-list' });

  const load = async () => {
    /** @type {{ tokens: OpsToken[] }} */
    const page = await call('GET', 'tokens?limit=100');
    if (!ctx.current()) return;
    if (page.tokens.length === 0) return mount(list, h('p', { class: 'empty' }, 'No token issued yet.'));
    mount(
      list,
      table(
        [
          { title: 'Id', cell: (t) => t.id, num: true },
          { title: 'Name', cell: (t) => t.name },
          { title: 'Role', cell: (t) => t.role },
          { title: 'State', cell: (t) => h('span', { class: `state-${stateOf(t)}` }, stateOf(t)) },
          { title: 'Issued by (acts as)', cell: (t) => t.createdByName },
          { title: 'Expires', cell: (t) => when(t.expiresAt) },
          { title: 'Last used', cell: (t) => (t.lastUsedAt ? when(t.lastUsedAt) : '—') },
          {
            title: '',
            cell: (t) =>
              t.revokedAt
                ? `revoked by ${t.revokedByName ?? ''}`
                : h(
                    'button',
                    {
                      type: 'button',
                      class: 'danger',
                      'data-revoke': t.id,
                      onclick: async () => {
                        const ok = await confirmAction({
                          title: `Revoke token ${t.name}?`,
                          text: 'Every call made with it is refused from now on. This cannot be undone.',
                          ok: 'Revoke',
                        });
                        if (!ok) return;
                        try {
                          await call('DELETE', `tokens/${seg(t.id)}`);
                          await load();
                        } catch (e) {
                          mount(issued, notice('error', describe(e)));
                        }
                      },
                    },
                    'Revoke',
                  ),
          },
        ],
        page.tokens,
        { id: 'tokens-table' },
      ),
    );
  };

  const form = h(
    'form',
    {
      id: 'token-form',
      class: 'filters',
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const v = formValues(/** @type {HTMLFormElement} */ (e.target));
        try {
          /** @type {OpsToken & { token: string }} */
          const t = await call('POST', 'tokens', {
            name: v['name'],
            role: v['role'],
            ...(v['ttlHours'] ? { ttlHours: Number(v['ttlHours']) } : {}),
          });
          if (!ctx.current()) return;
          /** @type {HTMLFormElement} */ (e.target).reset();
          mount(
            issued,
            notice(
              'ok',
              `Token ${t.name} (${t.role}) issued, valid until ${when(t.expiresAt)}. Copy it now: it is not shown again.`,
            ),
            h('code', { id: 'token-secret', class: 'secret' }, t.token),
          );
          await load();
        } catch (err) {
          mount(issued, notice('error', describe(err)));
        }
      },
    },
    h('label', {}, 'Name', h('input', { name: 'name', required: true, pattern: '[A-Za-z0-9._\\-]{1,64}' })),
    h(
      'label',
      {},
      'Role',
      h(
        'select',
        { name: 'role' },
        ['viewer', 'operator', 'approver'].map((r) => h('option', { value: r }, r)),
      ),
    ),
    h(
      'label',
      {},
      'Valid for (hours)',
      h('input', { name: 'ttlHours', type: 'number', min: '0.01', step: 'any', placeholder: '720' }),
    ),
    h('button', { type: 'submit', class: 'primary' }, 'Issue token'),
  );

  mount(
    ctx.el,
    h('h1', {}, 'Tokens'),
    h(
      'p',
      { class: 'muted' },
      'Tokens for automation (scripts, monitoring) call the operations API as a bearer header. Each expires; revoke one you no longer need. Stored hashed: a lost token cannot be shown again, issue a new one.',
    ),
    form,
    issued,
    list,
  );
  await load();
}
