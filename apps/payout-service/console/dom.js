// @ts-check
// Building the page from data: elements and text nodes only. Nothing here (or anywhere in the
// console) parses HTML from a string: the page's CSP requires Trusted Types with no policy, so
// `innerHTML = ...` would throw even if someone wrote it.

/** @typedef {string | number | Node | null | undefined | false | ChildList} Child */
/** @typedef {Array<Child>} ChildList */

/**
 * An element with attributes and children. `on<event>` attributes take functions; `null`,
 * `undefined` and `false` attributes are left out; strings and numbers become text nodes.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined | ((e: any) => unknown)>} [attrs]
 * @param {Child[]} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function')
      el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

/** @param {Node} el @param {Child[]} children */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else
      el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces an element's children. @param {Element} el @param {Child[]} children */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** @param {string | null | undefined} status */
export function statusBadge(status) {
  const s = status ?? '';
  return h('span', { class: `status status-${s.replace(/[^A-Z_]/g, '')}` }, s);
}

/** @param {string | null | undefined} iso */
export function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? String(iso)
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}

/**
 * A table: `columns` say the header and how to render a cell from a row.
 * @template T
 * @param {Array<{ title: string, cell: (row: T) => Child, num?: boolean }>} columns
 * @param {T[]} rows
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 */
export function table(columns, rows, attrs = {}) {
  return h(
    'table',
    attrs,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((c) => h('th', {}, c.title)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((r) =>
        h(
          'tr',
          {},
          columns.map((c) => h('td', { class: c.num ? 'num' : null }, c.cell(r))),
        ),
      ),
    ),
  );
}

/** @param {'error' | 'ok' | 'off' | ''} kind @param {Child[]} children */
export function notice(kind, ...children) {
  return h('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...children);
}

/** A link inside the console (hash routes; no token ever goes in a URL). @param {string} route @param {Child[]} children */
export function link(route, ...children) {
  return h('a', { href: `#${route}` }, ...children);
}

/** The route of a payout's page. @param {string} accountId @param {string} transferId */
export function payoutRoute(accountId, transferId) {
  return `/payout/${encodeURIComponent(accountId)}/${encodeURIComponent(transferId)}`;
}

/**
 * Asks before an action: a modal dialog with the action named on its button. Resolves true on
 * confirm, false on cancel or Escape.
 * @param {{ title: string, text: string, ok: string }} q
 * @returns {Promise<boolean>}
 */
export function confirmAction(q) {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('confirm'));
  /** @type {HTMLElement} */ (document.getElementById('confirm-title')).textContent = q.title;
  /** @type {HTMLElement} */ (document.getElementById('confirm-text')).textContent = q.text;
  /** @type {HTMLElement} */ (document.getElementById('confirm-ok')).textContent = q.ok;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.showModal();
  });
}

/** Form fields by name, trimmed; empty ones left out. @param {HTMLFormElement} form */
export function formValues(form) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of new FormData(form)) {
    const s = typeof v === 'string' ? v.trim() : '';
    if (s !== '') out[k] = s;
  }
  return out;
}
