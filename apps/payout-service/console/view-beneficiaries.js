// @ts-check
// Beneficiaries of a provider account: look one up, propose registering or removing one (GET, POST
// and DELETE /ops/beneficiaries/...; another person approves before the provider is asked). The API
// answers them masked (account number, VPA, phone, email); what the operator typed is cleared from
// the form once sent.
import { call, describe, seg } from './api.js';
import { confirmAction, formValues, h, mount, notice } from './dom.js';
import { beneficiaryProposalsSection, changeText } from './view-bene-proposals.js';

/**
 * @typedef {{ beneId: string, name?: string, bankAccount?: string, ifsc?: string, vpa?: string,
 *   email?: string, phone?: string, city?: string, state?: string, status?: string, addedOn?: string }} Beneficiary
 * @typedef {{ accountId: string, generation: 'v1' | 'v2', result: string, beneficiary?: Beneficiary }} BeneficiaryAnswer
 */

const FIELDS = /** @type {const} */ ([
  ['beneId', 'Beneficiary id'],
  ['name', 'Name'],
  ['bankAccount', 'Account number'],
  ['ifsc', 'IFSC'],
  ['vpa', 'VPA'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['city', 'City'],
  ['state', 'State'],
  ['status', 'Status at the provider'],
  ['addedOn', 'Added on'],
]);

const RESULT_TEXT = /** @type {Record<string, string>} */ ({
  created: 'Registered.',
  exists: 'Already registered with these details: nothing changed.',
  found: 'Found.',
  deleted: 'Removed.',
  absent: 'Not registered (already removed, or never was).',
});

/** @param {BeneficiaryAnswer} a */
function answerView(a) {
  const b = a.beneficiary;
  return h(
    'div',
    { class: 'beneficiary', 'data-result': a.result },
    notice(
      'ok',
      `${RESULT_TEXT[a.result] ?? a.result} (account ${a.accountId}, provider API ${a.generation})`,
    ),
    b
      ? h(
          'dl',
          { class: 'fields' },
          FIELDS.filter(([k]) => b[k] !== undefined).map(([k, label]) => [
            h('dt', {}, label),
            h('dd', { 'data-field': k }, String(b[k])),
          ]),
        )
      : null,
  );
}

/** A change proposed: it waits for another person. @param {import('./view-bene-proposals.js').BeneProposal} p */
const proposedView = (p) =>
  notice(
    'ok',
    `Proposed (change ${p.id}): ${changeText(p)}. Another person approves it before the provider is asked.`,
  );

/** @type {import('./view-types.js').View} */
export async function beneficiariesView(ctx) {
  const waiting = h('div', { id: 'bene-waiting' });
  const found = h('div', { id: 'bene-found' });
  const made = h('div', { id: 'bene-made' });
  const may = ctx.me.may.has('beneficiary');
  const account = ctx.query.get('accountId') ?? 'default';

  /** @param {string} accountId @param {string} beneId */
  const show = async (accountId, beneId) => {
    try {
      /** @type {BeneficiaryAnswer} */
      const a = await call('GET', `beneficiaries/${seg(accountId)}/${seg(beneId)}`);
      if (!ctx.current()) return;
      const out = h('div', {});
      const remove = h(
        'button',
        {
          type: 'button',
          id: 'bene-delete',
          class: 'danger',
          disabled: !may,
          title: may ? null : `your role (${ctx.me.role ?? ''}) may not remove a beneficiary`,
          onclick: async () => {
            const ok = await confirmAction({
              title: `Remove beneficiary ${beneId}?`,
              text: `Once another person approves, it is removed at the provider (account ${accountId}); payouts to it are refused from then on.`,
              ok: 'Propose removal',
            });
            if (!ok) return;
            try {
              /** @type {import('./view-bene-proposals.js').BeneProposal} */
              const proposed = await call('DELETE', `beneficiaries/${seg(accountId)}/${seg(beneId)}`);
              mount(found, proposedView(proposed));
              void beneficiaryProposalsSection(ctx, waiting).catch(() => undefined);
            } catch (e) {
              mount(out, notice('error', describe(e)));
            }
          },
        },
        'Remove…',
      );
      mount(found, answerView(a), h('div', { class: 'actions' }, remove), out);
    } catch (e) {
      mount(found, notice('error', describe(e)));
    }
  };

  const lookup = h(
    'form',
    {
      id: 'bene-lookup',
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const v = formValues(/** @type {HTMLFormElement} */ (e.currentTarget));
        void show(v['accountId'] ?? 'default', v['beneId'] ?? '');
      },
    },
    h(
      'div',
      { class: 'filters' },
      h('label', {}, 'Account', h('input', { name: 'accountId', value: account, size: 10, required: true })),
      h('label', {}, 'Beneficiary id', h('input', { name: 'beneId', size: 24, required: true })),
      h('button', { type: 'submit', class: 'primary' }, 'Look up'),
    ),
  );

  /** @param {string} name @param {string} label @param {Record<string, string | number | boolean>} [attrs] */
  const input = (name, label, attrs = {}) => h('label', {}, label, h('input', { name, ...attrs }));
  const create = may
    ? h(
        'form',
        {
          id: 'bene-create',
          autocomplete: 'off',
          onsubmit: async (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            const form = /** @type {HTMLFormElement} */ (e.currentTarget);
            const { accountId = 'default', ...details } = formValues(form);
            const ok = await confirmAction({
              title: `Register beneficiary ${details['beneId'] ?? ''}?`,
              text: `Once another person approves, it is registered at the provider for account ${accountId}. The same id with the same details again changes nothing.`,
              ok: 'Propose',
            });
            if (!ok) return;
            // What was typed (an account number, a phone) does not stay on the page.
            form.reset();
            try {
              /** @type {import('./view-bene-proposals.js').BeneProposal} */
              const proposed = await call('POST', `beneficiaries/${seg(accountId)}`, details);
              mount(made, proposedView(proposed));
              void beneficiaryProposalsSection(ctx, waiting).catch(() => undefined);
            } catch (err) {
              mount(made, notice('error', `Not registered: ${describe(err)}`));
            }
          },
        },
        h(
          'div',
          { class: 'filters' },
          input('accountId', 'Account', { value: account, size: 10, required: true }),
          input('beneId', 'Beneficiary id', { size: 24, required: true, pattern: '[A-Za-z0-9]{1,60}' }),
          input('name', 'Name', { size: 24, required: true }),
          input('bankAccount', 'Account number', { size: 20, pattern: '[A-Za-z0-9]{6,40}' }),
          input('ifsc', 'IFSC', { size: 12, pattern: '[A-Z]{4}0[A-Z0-9]{6}' }),
          input('vpa', 'VPA', { size: 20 }),
          input('email', 'Email (v1: required)', { type: 'email', size: 24 }),
          input('phone', 'Phone (v1: required)', { size: 14 }),
          input('address1', 'Address (v1: required)', { size: 30 }),
          h('button', { type: 'submit', class: 'primary' }, 'Register…'),
        ),
      )
    : h(
        'p',
        { class: 'muted' },
        `Your role (${ctx.me.role ?? ''}) may look beneficiaries up, not change them.`,
      );

  mount(
    ctx.el,
    h('h1', {}, 'Beneficiaries'),
    h(
      'p',
      { class: 'muted' },
      'Each account goes to its provider API generation (v1 or v2). Account numbers, VPAs, phones and emails are shown masked.',
    ),
    h('h2', {}, 'Look up'),
    lookup,
    found,
    h('h2', {}, 'Register'),
    create,
    made,
    waiting,
  );
  await beneficiaryProposalsSection(ctx, waiting).catch((e) => mount(waiting, notice('error', describe(e))));
}
