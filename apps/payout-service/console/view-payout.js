// @ts-check
// One payout: its fields (GET /ops/payouts/:accountId/:transferId), its timeline, a recheck with
// confirmation, and the four-eyes settlement (propose, then a second operator approves or rejects).
import { call, describe, seg } from './api.js';
import { confirmAction, h, mount, notice, statusBadge, when } from './dom.js';
import { fourEyesSection } from './view-four-eyes.js';
import { timelineSection } from './view-timeline.js';
import { SUB_STATE_LABELS } from './vocabulary.js';

/**
 * @typedef {{ accountId: string, transferId: string, kind: string, status: string, version: number,
 *   attempt: number, amount: string, reason: string | null, subState?: string | null, statusCode: string | null,
 *   referenceId: string | null, svcTransferId: string | null, utr: string | null,
 *   fee?: { charge: string, tax?: string } | null,
 *   requestId: string | null, nextCheckAt: string | null, checkCount: number,
 *   beneficiary: Record<string, string> | null, createdAt: string, updatedAt: string }} Payout
 */

const FINAL = new Set(['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED']);
/** Not sent yet: queued, held for approval, held for funds. A recheck has nothing to check. */
const NOT_SENT = new Set(['RECEIVED', 'AWAITING_APPROVAL', 'HELD_FOR_FUNDS']);
const TIMELINE = 'GET /ops/payouts/{accountId}/{transferId}/timeline';

/**
 * @typedef {import('./view-timeline.js').Timeline} Timeline
 */

/** @type {import('./view-types.js').View} */
export async function payoutView(ctx) {
  const [accountId = '', transferId = ''] = ctx.params;
  const path = `payouts/${seg(accountId)}/${seg(transferId)}`;
  // With the history API, one call answers the payout and its story; without it, the payout alone.
  /** @type {Timeline | null} */
  const story = ctx.caps.has(TIMELINE) ? await call('GET', `${path}/timeline`) : null;
  /** @type {Payout} */
  const p = story ? story.payout : await call('GET', path);
  if (!ctx.current()) return;

  const result = h('div', { id: 'action-result' });
  const canRecheck = !FINAL.has(p.status) && !NOT_SENT.has(p.status) && ctx.me.may.has('recheck');
  const recheck = h(
    'button',
    {
      type: 'button',
      id: 'recheck',
      disabled: !canRecheck,
      title: canRecheck
        ? null
        : ctx.me.may.has('recheck')
          ? `a ${p.status} payout has nothing to check`
          : `your role (${ctx.me.role ?? ''}) may not recheck`,
      onclick: async () => {
        const ok = await confirmAction({
          title: `Recheck ${p.transferId}?`,
          text:
            p.status === 'REQUIRES_ATTENTION'
              ? 'The payout goes back to UNKNOWN and the reconciler asks the provider for its status again. Nothing is sent again.'
              : 'The reconciler asks the provider for its status now. Nothing is sent again.',
          ok: 'Recheck',
        });
        if (!ok) return;
        try {
          /** @type {{ action: string, payout: Payout }} */
          const r = await call('POST', `${path}/recheck`);
          mount(
            result,
            notice(
              'ok',
              `Recheck accepted (${r.action}): the payout is ${r.payout.status} at version ${r.payout.version}.`,
            ),
          );
          setTimeout(() => ctx.current() && ctx.refresh(), 1200);
        } catch (e) {
          mount(result, notice('error', `Recheck refused: ${describe(e)}`));
        }
      },
    },
    'Recheck…',
  );

  const fields = /** @type {Array<[string, import('./dom.js').Child]>} */ ([
    ['Status', statusBadge(p.status)],
    ['Kind', p.kind],
    ['Amount', p.amount],
    ['Reason', p.reason ?? ''],
    ['At the provider', p.subState ? `${p.subState}: ${SUB_STATE_LABELS[p.subState] ?? ''}` : ''],
    ['Provider status code', p.statusCode ?? ''],
    ['Version / attempt', `${p.version} / ${p.attempt}`],
    ['Reference id', p.referenceId ?? ''],
    ['Provider transfer id', p.svcTransferId ?? ''],
    ['UTR', p.utr ?? ''],
    // The provider's fee once settled (issue 32); empty: not known.
    ['Provider fee', p.fee ? `charge ${p.fee.charge}, tax ${p.fee.tax ?? 'not sent'}` : ''],
    ['Request id', p.requestId ?? ''],
    ['Checks', String(p.checkCount)],
    ['Next check', when(p.nextCheckAt)],
    [
      'Beneficiary (masked)',
      p.beneficiary
        ? Object.entries(p.beneficiary)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')
        : '',
    ],
    ['Created', when(p.createdAt)],
    ['Updated', when(p.updatedAt)],
  ]);

  const timeline = h('div', { id: 'timeline' });
  const fourEyes = h('div', { id: 'four-eyes' });
  mount(
    ctx.el,
    h(
      'h1',
      {},
      'Payout ',
      h('code', {}, p.transferId),
      ' ',
      h('span', { class: 'muted' }, `account ${p.accountId}`),
    ),
    h(
      'div',
      { class: 'actions' },
      recheck,
      h('button', { type: 'button', onclick: () => ctx.refresh() }, 'Refresh'),
    ),
    result,
    h(
      'div',
      { class: 'cols' },
      h(
        'div',
        {},
        h(
          'dl',
          { class: 'fields', id: 'payout-fields' },
          fields.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
        ),
      ),
      h('div', {}, fourEyes),
    ),
    timeline,
  );
  timelineSection(ctx, timeline, story);
  fourEyesSection(ctx, fourEyes, p, story);
}
