// @ts-check
// Types shared by the views (JSDoc only: this module exports nothing at run time).

/**
 * @typedef {object} ViewContext
 * @property {HTMLElement} el the view's section, to fill
 * @property {string[]} params decoded route parameters
 * @property {URLSearchParams} query the route's query (after `?` in the hash)
 * @property {import('./api.js').Capabilities} caps routes this service has ("GET /ops/...")
 * @property {Me} me who is signed in
 * @property {() => boolean} current false once the operator has moved to another view
 * @property {() => void} refresh renders the current route again
 */

/** @typedef {(ctx: ViewContext) => Promise<void>} View */

/**
 * @typedef {object} Me
 * @property {string | null} id the human's id, compared for four eyes (null: a service with one shared token)
 * @property {string | null} name for display only (an OpenID Connect username may change)
 * @property {string | null} role viewer, operator or approver
 * @property {Set<string>} may actions allowed: read, recheck, replay, propose, acknowledge, beneficiary, decide
 */

export {};
