// @ts-check
// The console's shell: sign-in, navigation, hash routes (#/queue, #/search, #/payout/<account>/<id>,
// #/proposals, #/approvals, #/funds, #/dead-letters, #/beneficiaries, #/tokens). Each view is a function that fills <main> from the operations API.
// Sign-in: with the company's identity provider (a server-side session, an HttpOnly cookie) when
// the service has one, or with a token typed in (automation, break-glass).
import {
  ApiError,
  call,
  capabilities,
  describe,
  signInMethods,
  signOutSession,
  token,
  whenUnauthorized,
  whoAmI,
} from './api.js';
import { h, mount, notice } from './dom.js';
import { approvalsView } from './view-approvals.js';
import { beneficiariesView } from './view-beneficiaries.js';
import { deadLettersView } from './view-dead-letters.js';
import { fundsView } from './view-funds.js';
import { payoutView } from './view-payout.js';
import { proposalsView } from './view-proposals.js';
import { queueView } from './view-queue.js';
import { searchView } from './view-search.js';
import { tokensView } from './view-tokens.js';

/** @typedef {import('./view-types.js').View} View */

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));
const who = /** @type {HTMLElement} */ (document.getElementById('who'));
const signOut = /** @type {HTMLButtonElement} */ (document.getElementById('sign-out'));

/** @type {Array<[RegExp, string, View]>} */
const ROUTES = [
  [/^\/queue$/, 'queue', queueView],
  [/^\/search$/, 'search', searchView],
  [/^\/payout\/([^/]+)\/([^/]+)$/, 'payout', payoutView],
  [/^\/proposals$/, 'proposals', proposalsView],
  [/^\/approvals$/, 'approvals', approvalsView],
  [/^\/funds$/, 'funds', fundsView],
  [/^\/dead-letters$/, 'dead-letters', deadLettersView],
  [/^\/beneficiaries$/, 'beneficiaries', beneficiariesView],
  [/^\/tokens$/, 'tokens', tokensView],
];

/** @type {{ caps: import('./api.js').Capabilities, me: import('./view-types.js').Me, by: 'token' | 'session' } | null} */
let session = null;
/** The sign-in methods, asked once. @type {Promise<{ oidc: boolean, session: boolean }> | null} */
let methods = null;
/** Each render has a number; a slow answer for an older one is dropped. */
let generation = 0;

whenUnauthorized(() => {
  token.clear();
  session = null;
});

/**
 * Why the service refused the operator, in words for the sign-in page (the refusal clears the
 * token and the session first, so the caller says how it was signed in).
 * @param {ApiError} e @param {'token' | 'session'} by
 */
function refusal(e, by) {
  if (e.message.includes('session has ended')) return 'Your session has ended; sign in again.';
  if (by === 'session') return '';
  if (e.message.includes('expired')) return 'Your token has expired; sign in again.';
  if (e.message.includes('revoked')) return 'Your token was revoked; sign in again.';
  return 'Your token was refused; sign in again.';
}

async function showLogin(/** @type {string} */ message = '') {
  const mine = generation;
  methods ??= signInMethods();
  const { oidc } = await methods;
  // A render begun meanwhile (a sign-in, a route) owns the page now.
  if (mine !== generation) return;
  nav.hidden = true;
  signOut.hidden = true;
  who.textContent = '';
  const input = h('input', {
    type: 'password',
    name: 'token',
    id: 'token',
    autocomplete: 'off',
    required: true,
    minlength: 16,
    spellcheck: 'false',
  });
  const form = h(
    'form',
    {
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const t = /** @type {HTMLInputElement} */ (input).value.trim();
        token.set(t);
        try {
          // Any role may read the queue: a cheap check that the token is one the service knows.
          await call('GET', 'requires-attention?limit=1');
          if (!location.hash || location.hash === '#/' || location.hash === '#') location.hash = '#/queue';
          else void render();
        } catch (err) {
          token.clear();
          void showLogin(
            err instanceof ApiError && err.status === 401 ? 'That token was refused.' : describe(err),
          );
        }
      },
    },
    h('label', { for: 'token' }, oidc ? 'Or an operator token' : 'Your operator token', input),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
  );
  mount(
    main,
    h(
      'section',
      { class: 'login', 'data-view': 'login' },
      h('h1', {}, 'Sign in'),
      message ? notice('error', message) : null,
      oidc
        ? h(
            'p',
            {},
            h(
              'a',
              { href: 'console/auth/login', id: 'sign-in-oidc', class: 'button primary' },
              'Sign in with your company account',
            ),
          )
        : null,
      h(
        'p',
        { class: 'muted' },
        oidc
          ? 'Tokens are for automation and break-glass. A token stays in this browser tab (session storage) and is sent only to this service, as a bearer header.'
          : 'Your token stays in this browser tab (session storage) and is sent only to this service, as a bearer header.',
      ),
      form,
    ),
  );
  if (!oidc) /** @type {HTMLInputElement} */ (input).focus();
}

async function render() {
  const mine = ++generation;
  // With no token typed in, a session cookie may sign the calls in (it is HttpOnly: the page
  // cannot see it, so it asks).
  const by = session?.by ?? (token.get() ? 'token' : 'session');
  try {
    if (!session && by === 'session') {
      // Asked before any /ops call: opening the console signed out must not be a failed sign-in.
      const m = await signInMethods();
      methods = Promise.resolve(m);
      if (mine !== generation) return;
      if (!m.session) return showLogin();
    }
    if (!session) {
      const caps = await capabilities();
      session = { caps, me: await whoAmI(caps), by };
      who.textContent = session.me.id ? `${session.me.name} (${session.me.role ?? ''})` : 'signed in';
    }
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return showLogin(refusal(e, by));
    return showLogin(describe(e));
  }
  nav.hidden = false;
  signOut.hidden = false;
  for (const a of nav.querySelectorAll('a[data-needs]'))
    /** @type {HTMLElement} */ (a).hidden = !session.me.may.has(
      /** @type {HTMLElement} */ (a).dataset['needs'] ?? '',
    );
  const hash = location.hash.slice(1) || '/queue';
  const [path = '', query = ''] = hash.split('?');
  const route = ROUTES.find(([re]) => re.test(path));
  if (!route) {
    location.hash = '#/queue';
    return;
  }
  const [re, name, view] = route;
  for (const a of nav.querySelectorAll('a')) a.classList.toggle('active', a.dataset['nav'] === name);
  const params = (re.exec(path) ?? []).slice(1).map((p) => decodeURIComponent(p));
  const section = h('section', { 'data-view': name }, h('p', { class: 'muted' }, 'Loading…'));
  mount(main, section);
  try {
    await view({
      el: section,
      params,
      query: new URLSearchParams(query),
      caps: session.caps,
      me: session.me,
      current: () => mine === generation,
      refresh: () => void render(),
    });
  } catch (e) {
    if (mine !== generation) return;
    if (e instanceof ApiError && e.status === 401) return showLogin(refusal(e, by));
    mount(section, notice('error', describe(e)));
  }
}

signOut.addEventListener('click', () => {
  const by = session?.by;
  token.clear();
  session = null;
  void (async () => {
    // A session ends at the service (and, when it has one, at the provider: the browser goes there).
    if (by === 'session') await signOutSession().catch(() => undefined);
    // One render shows the sign-in (a second one, racing it, would replace a form being typed in).
    if (location.hash === '#/queue') void render();
    else location.hash = '#/queue';
  })();
});
window.addEventListener('hashchange', () => void render());
void render();
