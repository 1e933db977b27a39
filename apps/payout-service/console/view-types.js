// @ts-check
// Types shared by the views (JSDoc only: this module exports nothing at run time).

/**
 * @typedef {object} ViewContext
 * @property {HTMLElement} el the view's section, to fill
 * @property {string[]} params decoded route parameters
 * @property {URLSearchParams} query the route's query (after `?` in the hash)
 * @property {Set<string>} caps routes this service has ("GET /ops/...")
 * @property {() => boolean} current false once the operator has moved to another view
 * @property {() => void} refresh renders the current route again
 */

/** @typedef {(ctx: ViewContext) => Promise<void>} View */

export {};
