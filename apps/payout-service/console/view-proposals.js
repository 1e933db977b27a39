// @ts-check
// Open proposals, for approvers (four eyes).
import { h, mount, notice } from './dom.js';

/** @type {import('./view-types.js').View} */
export async function proposalsView(ctx) {
  if (!ctx.caps.has('GET /ops/proposals')) {
    mount(
      ctx.el,
      h('h1', {}, 'Proposals'),
      notice('off', 'Not available: this service has no proposal API yet.'),
    );
    return;
  }
  mount(ctx.el, h('h1', {}, 'Proposals'));
}
