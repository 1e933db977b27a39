// @ts-check
// Approval before sending (issue 30): payouts and batches the account's policy holds, oldest
// first, each with the rules that caught it, and Approve / Reject for a person whose role the hold
// asks for. The service enforces everything (distinct people, no token, not whoever changed the
// beneficiary); the console asks before each step.
import { call, describe, qs, seg } from './api.js';
import { confirmAction, h, link, mount, notice, payoutRoute, table, when } from './dom.js';

/**
 * @typedef {{ holdId: string, subject: 'payout' | 'batch', accountId: string, transferId: string,
 *   amount: string, rules: Array<{ rule: string, detail: string }>, policyVersion: string,
 *   approvalsNeeded: number, approvals: number, approvedBy: string[], approverRole: string,
 *   excluded: string[], state: string, createdAt: string, expiresAt: string }} Approval
 */

const RANK = ['viewer', 'operator', 'approver'];

/** @type {import('./view-types.js').View} */
export async function approvalsView(ctx) {
  if (!ctx.caps.has('GET /ops/approvals')) {
    mount(
      ctx.el,
      h('h1', {}, 'Approvals'),
      notice('off', 'Not available: this service has no approval API.'),
    );
    return;
  }
  const result = h('div', { id: 'approval-result' });
  const list = h('div', { id: 'approvals' });
  mount(
    ctx.el,
    h('h1', {}, 'Waiting for approval'),
    h(
      'p',
      { class: 'muted' },
      "Held by the account's approval policy before anything is sent: the provider has not seen them. Approved by enough different people, a payout is sent; rejected, or not approved in time, it ends REJECTED.",
    ),
    result,
    list,
  );
  /** @type {{ items: Approval[], next: string | null }} */
  const page = await call('GET', `approvals${qs({ limit: 100 })}`);
  if (!ctx.current()) return;
  if (page.items.length === 0) {
    mount(list, h('p', { class: 'empty' }, 'Nothing waits for approval.'));
    return;
  }
  mount(
    list,
    table(
      [
        {
          title: 'Payout',
          cell: (x) =>
            x.subject === 'payout'
              ? link(payoutRoute(x.accountId, x.transferId), h('code', {}, x.transferId))
              : [h('code', {}, x.transferId), ' (batch)'],
        },
        { title: 'Account', cell: (x) => x.accountId },
        { title: 'Amount', cell: (x) => x.amount },
        {
          title: 'Why',
          cell: (x) => x.rules.map((r) => h('div', {}, h('strong', {}, r.rule), ': ', r.detail)),
        },
        {
          title: 'Approvals',
          cell: (x) =>
            `${x.approvals} of ${x.approvalsNeeded} (${x.approverRole})${x.approvedBy.length ? `: ${x.approvedBy.join(', ')}` : ''}`,
        },
        { title: 'Waiting since', cell: (x) => when(x.createdAt) },
        { title: 'Expires', cell: (x) => when(x.expiresAt) },
        { title: '', cell: (x) => buttons(ctx, x, result) },
      ],
      page.items,
      { id: 'approvals-table' },
    ),
  );
}

/**
 * @param {import('./view-types.js').ViewContext} ctx @param {Approval} x @param {HTMLElement} result
 */
function buttons(ctx, x, result) {
  const role = ctx.me.role ?? '';
  if (ctx.me.role !== null && RANK.indexOf(role) < RANK.indexOf(x.approverRole))
    return h('span', { class: 'muted' }, `Needs the ${x.approverRole} role.`);
  if (ctx.me.id !== null && x.approvedBy.includes(ctx.me.id))
    return h('span', { class: 'muted' }, 'You approved it: another person must.');
  if (ctx.me.id !== null && x.excluded.includes(ctx.me.id))
    return h('span', { class: 'muted' }, 'You changed its beneficiary: another person must decide.');
  const kind = x.subject === 'batch' ? 'batches' : 'payouts';
  /** @param {'approve' | 'reject'} decision */
  const decide = async (decision) => {
    const ok = await confirmAction({
      title: `${decision === 'approve' ? 'Approve' : 'Reject'} ${x.subject} ${x.transferId} (${x.amount})?`,
      text:
        decision === 'approve'
          ? x.approvals + 1 >= x.approvalsNeeded
            ? `It is sent to the provider now${x.subject === 'batch' ? ', the whole batch' : ''}.`
            : `Your approval is recorded; ${x.approvalsNeeded - x.approvals - 1} more person(s) must approve.`
          : 'It ends REJECTED (approval_rejected) and is never sent. This cannot be undone.',
      ok: decision === 'approve' ? 'Approve' : 'Reject',
    });
    if (!ok) return;
    try {
      /** @type {Approval} */
      const r = await call(
        'POST',
        `approvals/${kind}/${seg(x.accountId)}/${seg(x.transferId)}/${decision}`,
        {},
      );
      mount(result, notice('ok', `${x.transferId}: ${r.state} (${r.approvals} of ${r.approvalsNeeded}).`));
      setTimeout(() => ctx.current() && ctx.refresh(), 800);
    } catch (err) {
      mount(
        result,
        notice('error', `${decision === 'approve' ? 'Approval' : 'Rejection'} refused: ${describe(err)}`),
      );
    }
  };
  return h(
    'div',
    { class: 'actions' },
    h(
      'button',
      { type: 'button', class: 'primary approve', onclick: () => void decide('approve') },
      'Approve…',
    ),
    h('button', { type: 'button', class: 'reject', onclick: () => void decide('reject') }, 'Reject…'),
  );
}
