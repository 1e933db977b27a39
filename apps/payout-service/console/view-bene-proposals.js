// @ts-check
// A person's beneficiary changes wait for a second person (issue 30): the open ones, with their
// details masked, approved or rejected here by another approver (GET /ops/beneficiary-proposals,
// POST .../{id}/approve | reject). Only an approval asks the provider.
import { call, describe, seg } from './api.js';
import { confirmAction, h, mount, notice, table, when } from './dom.js';

/**
 * @typedef {{ id: string, accountId: string, beneId: string, change: 'create' | 'delete',
 *   summary: Record<string, string> | null, proposedBy: string, proposedByName: string, proposedVia: string,
 *   proposedAt: string, state: string, decidedByName: string | null, result: string | null }} BeneProposal
 */

/** What a proposal asks, in a line: the change and, for a registration, its masked details. @param {BeneProposal} p */
export function changeText(p) {
  if (p.change === 'delete') return `remove ${p.beneId} (account ${p.accountId})`;
  const s = p.summary ?? {};
  const where = [s['bankAccount'], s['ifsc'], s['vpa']].filter(Boolean).join(' · ');
  return `register ${p.beneId} (account ${p.accountId}): ${s['name'] ?? ''}${where ? `, ${where}` : ''}`;
}

/**
 * @param {import('./view-types.js').ViewContext} ctx
 * @param {HTMLElement} el
 */
export async function beneficiaryProposalsSection(ctx, el) {
  /** @type {{ items: BeneProposal[] }} */
  const page = await call('GET', 'beneficiary-proposals?state=open&limit=100');
  if (!ctx.current()) return;
  const result = h('div', { id: 'bene-proposal-result' });
  /** @param {BeneProposal} p @param {'approve' | 'reject'} decision */
  const decide = async (p, decision) => {
    const ok = await confirmAction({
      title: `${decision === 'approve' ? 'Approve' : 'Reject'} beneficiary change ${p.id}?`,
      text:
        decision === 'approve'
          ? `${changeText(p)}, proposed by ${p.proposedByName}. It is asked of the provider now; payouts to ${p.beneId} go to what it holds then.`
          : 'Nothing is asked of the provider; the proposal is closed.',
      ok: decision === 'approve' ? 'Approve' : 'Reject',
    });
    if (!ok) return;
    try {
      /** @type {BeneProposal} */
      const r = await call('POST', `beneficiary-proposals/${seg(p.id)}/${decision}`, {});
      mount(result, notice('ok', `Change ${r.id} is ${r.state}${r.result ? ` (${r.result})` : ''}.`));
      setTimeout(() => ctx.current() && ctx.refresh(), 800);
    } catch (e) {
      mount(result, notice('error', `Refused: ${describe(e)}`));
    }
  };
  /** @param {BeneProposal} p */
  const buttons = (p) => {
    if (!ctx.me.may.has('decide')) return h('span', { class: 'muted' }, 'waiting for an approver');
    if (ctx.me.id === p.proposedBy) return h('span', { class: 'muted' }, 'yours: another person decides');
    return h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { type: 'button', class: 'primary approve', onclick: () => void decide(p, 'approve') },
        'Approve…',
      ),
      h('button', { type: 'button', class: 'reject', onclick: () => void decide(p, 'reject') }, 'Reject…'),
    );
  };
  mount(
    el,
    h('h2', {}, `Changes waiting for a second person (${page.items.length})`),
    result,
    page.items.length === 0
      ? h('p', { class: 'empty' }, 'None.')
      : table(
          [
            { title: 'Change', cell: (p) => p.id },
            { title: 'What', cell: (p) => changeText(p) },
            {
              title: 'Proposed',
              cell: (p) =>
                `${p.proposedByName}${p.proposedVia.startsWith('token:') ? ` via ${p.proposedVia}` : ''}, ${when(p.proposedAt)}`,
            },
            { title: '', cell: buttons },
          ],
          page.items,
          { id: 'bene-proposals' },
        ),
  );
}
