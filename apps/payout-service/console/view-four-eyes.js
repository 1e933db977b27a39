// @ts-check
// Four-eyes settlement of a REQUIRES_ATTENTION payout: one operator proposes SUCCESS or FAILED with
// evidence; a different one approves (the state changes) or rejects.
import { call, describe, seg } from './api.js';
import { confirmAction, formValues, h, mount, notice, when } from './dom.js';

const PROPOSE = 'POST /ops/payouts/{accountId}/{transferId}/proposals';

/** @param {import('./view-types.js').ViewContext} ctx @param {HTMLElement} el @param {{ accountId: string, transferId: string, status: string, version: number }} p */
export async function fourEyesSection(ctx, el, p) {
  void p;
  if (!ctx.caps.has(PROPOSE)) {
    mount(
      el,
      h('h2', {}, 'Settle (four eyes)'),
      notice('off', 'Not available: this service has no proposal API yet. Settle by the runbook.'),
    );
    return;
  }
  mount(el, h('h2', {}, 'Settle (four eyes)'), h('p', { class: 'muted' }, 'Not wired yet.'));
  void call;
  void describe;
  void seg;
  void confirmAction;
  void formValues;
  void when;
}
