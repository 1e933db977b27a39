// @ts-check
// Four-eyes settlement of a REQUIRES_ATTENTION payout: one operator proposes SUCCESS or FAILED with
// evidence (UTR, note) on the version they saw; a different approver approves (only then the
// payout moves, with its event) or rejects. The service enforces all of it; the console only asks
// before each step and hides what the operator's role may not do.
import { call, describe, seg } from './api.js';
import { confirmAction, formValues, h, mount, notice, table, when } from './dom.js';

const PROPOSE = 'POST /ops/payouts/{accountId}/{transferId}/proposals';

/** @typedef {import('./view-timeline.js').Proposal} Proposal */

/** How a proposal was made, when not by the person directly: ` via token:<name>`. @param {string | undefined} v */
const via = (v) => (v && v.startsWith('token:') ? ` via ${v}` : '');

/**
 * @param {import('./view-types.js').ViewContext} ctx
 * @param {HTMLElement} el
 * @param {import('./view-payout.js').Payout} p
 * @param {import('./view-timeline.js').Timeline | null} story
 */
export function fourEyesSection(ctx, el, p, story) {
  const title = h('h2', {}, 'Settle (four eyes)');
  if (!ctx.caps.has(PROPOSE) || !story) {
    mount(
      el,
      title,
      notice('off', 'Not available: this service has no proposal API yet. Settle by the runbook.'),
    );
    return;
  }
  const open = story.proposals.find((x) => x.state === 'open');
  const past = story.proposals.filter((x) => x.state !== 'open');
  const result = h('div', { id: 'four-eyes-result' });
  mount(
    el,
    title,
    open
      ? openProposal(ctx, open, result)
      : p.status === 'REQUIRES_ATTENTION'
        ? proposeForm(ctx, p, result)
        : h(
            'p',
            { class: 'muted' },
            `Only a REQUIRES_ATTENTION payout is settled by a person; this one is ${p.status}.`,
          ),
    result,
    past.length === 0 ? null : [h('h2', {}, 'Earlier proposals'), proposalTable(past)],
  );
}

/** @param {import('./view-types.js').ViewContext} ctx @param {import('./view-payout.js').Payout} p @param {HTMLElement} result */
function proposeForm(ctx, p, result) {
  if (!ctx.me.may.has('propose'))
    return h('p', { class: 'muted' }, `Your role (${ctx.me.role ?? ''}) may not propose a settlement.`);
  const utr = h('input', { name: 'utr', id: 'propose-utr', size: 24, pattern: '[A-Za-z0-9]{6,35}' });
  const form = h(
    'form',
    {
      id: 'propose',
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const v = formValues(/** @type {HTMLFormElement} */ (e.currentTarget));
        const outcome = v['outcome'] ?? '';
        const ok = await confirmAction({
          title: `Propose ${outcome} for ${p.transferId}?`,
          text: `Nothing moves yet: a different approver must approve it. The proposal is on version ${p.version}; if the payout moves on, it is refused.`,
          ok: 'Propose',
        });
        if (!ok) return;
        try {
          /** @type {Proposal} */
          const made = await call('POST', `payouts/${seg(p.accountId)}/${seg(p.transferId)}/proposals`, {
            outcome,
            ...(v['utr'] ? { utr: v['utr'] } : {}),
            note: v['note'] ?? '',
            version: p.version,
          });
          mount(result, notice('ok', `Proposal ${made.id} is open: waiting for an approver.`));
          setTimeout(() => ctx.current() && ctx.refresh(), 800);
        } catch (err) {
          mount(result, notice('error', `Proposal refused: ${describe(err)}`));
        }
      },
    },
    h(
      'div',
      { class: 'filters' },
      h(
        'label',
        {},
        'Outcome',
        h(
          'select',
          { name: 'outcome', id: 'propose-outcome', required: true },
          h('option', { value: 'SUCCESS' }, 'SUCCESS (the money reached the beneficiary)'),
          h('option', { value: 'FAILED' }, 'FAILED (it did not, and will not)'),
        ),
      ),
      h('label', {}, 'UTR (evidence of a SUCCESS)', utr),
      h(
        'label',
        {},
        'Note',
        h('textarea', {
          name: 'note',
          id: 'propose-note',
          rows: 2,
          cols: 40,
          required: true,
          maxlength: 500,
        }),
      ),
      h('button', { type: 'submit', class: 'primary' }, 'Propose…'),
    ),
  );
  return form;
}

/** @param {import('./view-types.js').ViewContext} ctx @param {Proposal} x @param {HTMLElement} result */
function openProposal(ctx, x, result) {
  return h(
    'div',
    { id: 'open-proposal' },
    h(
      'dl',
      { class: 'fields' },
      h('dt', {}, 'Proposal'),
      h('dd', {}, x.id),
      h('dt', {}, 'Outcome'),
      h('dd', {}, x.outcome),
      h('dt', {}, 'UTR'),
      h('dd', {}, x.utr ?? ''),
      h('dt', {}, 'Note'),
      h('dd', {}, x.note),
      h('dt', {}, 'Proposed by'),
      h('dd', {}, `${x.proposedByName ?? x.proposedBy}${via(x.proposedVia)}, ${when(x.proposedAt)}`),
      h('dt', {}, 'On version'),
      h('dd', {}, String(x.fromVersion)),
    ),
    decisionButtons(ctx, x, result, () => setTimeout(() => ctx.current() && ctx.refresh(), 800)),
  );
}

/**
 * Approve and reject, each after a confirmation, for an approver who did not propose it.
 * @param {import('./view-types.js').ViewContext} ctx @param {Proposal} x @param {HTMLElement} result
 * @param {() => void} done
 */
export function decisionButtons(ctx, x, result, done) {
  if (!ctx.me.may.has('decide'))
    return h(
      'p',
      { class: 'muted' },
      `Waiting for an approver (your role, ${ctx.me.role ?? ''}, may not decide).`,
    );
  if (ctx.me.id !== null && ctx.me.id === x.proposedBy)
    return h(
      'p',
      { class: 'muted' },
      'Your own proposal (made by you, or by a token you issued): another person must decide it.',
    );
  /** @param {'approve' | 'reject'} decision */
  const decide = async (decision) => {
    const ok = await confirmAction({
      title: `${decision === 'approve' ? 'Approve' : 'Reject'} proposal ${x.id}?`,
      text:
        decision === 'approve'
          ? `${x.transferId} becomes ${x.outcome} now, with its event on the topic. This cannot be undone.`
          : `The proposal is closed; ${x.transferId} stays REQUIRES_ATTENTION.`,
      ok: decision === 'approve' ? 'Approve' : 'Reject',
    });
    if (!ok) return;
    try {
      /** @type {Proposal} */
      const r = await call('POST', `proposals/${seg(x.id)}/${decision}`, {});
      mount(result, notice('ok', `Proposal ${r.id} is ${r.state}.`));
      done();
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

/** @param {Proposal[]} rows */
export function proposalTable(rows) {
  return table(
    [
      { title: 'Proposal', cell: (x) => x.id },
      { title: 'Outcome', cell: (x) => x.outcome },
      { title: 'UTR', cell: (x) => x.utr ?? '' },
      { title: 'Note', cell: (x) => x.note },
      {
        title: 'Proposed',
        cell: (x) => `${x.proposedByName ?? x.proposedBy}${via(x.proposedVia)}, ${when(x.proposedAt)}`,
      },
      { title: 'State', cell: (x) => x.state },
      {
        title: 'Decided',
        cell: (x) => (x.decidedBy ? `${x.decidedByName ?? x.decidedBy}, ${when(x.decidedAt)}` : ''),
      },
    ],
    rows,
  );
}
