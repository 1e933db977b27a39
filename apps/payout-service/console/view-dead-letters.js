// @ts-check
// What is stuck: outbox rows the relay gave up on (replayable, with confirmation) and commands
// refused to the dead-letter topic (GET /ops/outbox/dead, GET /ops/dead-letters; paged).
import { call, describe, qs, seg } from './api.js';
import { confirmAction, h, mount, notice, table, when } from './dom.js';

/**
 * @typedef {{ id: string, eventId: string, eventType: string, messageKey: string, topic: string,
 *   attempts: number, lastError: string | null, createdAt: string }} DeadOutbox
 * @typedef {{ id: string, topic: string, partition: number, offset: string, reason: string,
 *   type: string | null, detail: unknown, createdAt: string }} DeadLetter
 */
/**
 * @template T
 * @typedef {{ items: T[], nextCursor: string | null }} Page
 */

/** @type {import('./view-types.js').View} */
export async function deadLettersView(ctx) {
  const outbox = h('div', { id: 'dead-outbox' });
  const commands = h('div', { id: 'dead-commands' });
  mount(
    ctx.el,
    h('h1', {}, 'Dead letters'),
    h('h2', {}, 'Events the relay gave up publishing'),
    h(
      'p',
      { class: 'muted' },
      'Each blocks the later events of its key. Replay puts it back in the queue: it is published at its original place.',
    ),
    outbox,
    h('h2', {}, 'Commands refused to the dead-letter topic'),
    h(
      'p',
      { class: 'muted' },
      'Scrubbed: field names and rules, never values. Replaying needs the producer’s copy.',
    ),
    commands,
  );
  await Promise.all([
    pagedInto(ctx, outbox, 'outbox/dead', outboxTable(ctx)),
    pagedInto(ctx, commands, 'dead-letters', commandTable),
  ]);
}

/**
 * Fills `el` with the first page and a "More" button for the next ones.
 * @template T
 * @param {import('./view-types.js').ViewContext} ctx @param {HTMLElement} el @param {string} path
 * @param {(rows: T[]) => HTMLElement} render
 */
async function pagedInto(ctx, el, path, render) {
  /** @param {string | null} cursor */
  const load = async (cursor) => {
    /** @type {Page<T>} */
    const page = await call('GET', `${path}${qs({ limit: 50, cursor })}`);
    if (!ctx.current()) return;
    el.querySelector('.more')?.remove();
    if (page.items.length === 0 && cursor === null) {
      mount(el, h('p', { class: 'empty' }, 'None.'));
      return;
    }
    el.appendChild(render(page.items));
    if (page.nextCursor !== null) {
      const next = page.nextCursor;
      el.appendChild(
        h(
          'div',
          { class: 'actions more' },
          h('button', { type: 'button', onclick: () => void load(next) }, 'More'),
        ),
      );
    }
  };
  mount(el);
  await load(null);
}

/** @param {import('./view-types.js').ViewContext} ctx */
function outboxTable(ctx) {
  /** @param {DeadOutbox[]} rows */
  return (rows) =>
    table(
      [
        { title: 'Event', cell: (r) => h('code', {}, r.eventId) },
        { title: 'Type', cell: (r) => r.eventType },
        { title: 'Attempts', cell: (r) => r.attempts, num: true },
        { title: 'Last error', cell: (r) => r.lastError ?? '' },
        { title: 'Since', cell: (r) => when(r.createdAt) },
        {
          title: '',
          cell: (r) => {
            const out = h('span', {});
            const button = h(
              'button',
              {
                type: 'button',
                class: 'replay',
                disabled: !ctx.me.may.has('replay'),
                title: ctx.me.may.has('replay') ? null : `your role (${ctx.me.role ?? ''}) may not replay`,
                onclick: async () => {
                  const ok = await confirmAction({
                    title: `Replay ${r.eventId}?`,
                    text: `The event goes back to the relay's queue and is published to ${r.topic}. Consumers dedupe on its id.`,
                    ok: 'Replay',
                  });
                  if (!ok) return;
                  try {
                    await call('POST', `outbox/${seg(r.id)}/replay`);
                    mount(out, notice('ok', 'Replayed.'));
                    /** @type {HTMLButtonElement} */ (button).disabled = true;
                  } catch (e) {
                    mount(out, notice('error', describe(e)));
                  }
                },
              },
              'Replay…',
            );
            return [button, out];
          },
        },
      ],
      rows,
    );
}

/** @param {DeadLetter[]} rows */
function commandTable(rows) {
  return table(
    [
      { title: 'When', cell: (r) => when(r.createdAt) },
      { title: 'Reason', cell: (r) => r.reason },
      { title: 'Type', cell: (r) => r.type ?? '' },
      { title: 'Detail', cell: (r) => h('code', {}, r.detail === null ? '' : JSON.stringify(r.detail)) },
      { title: 'Position', cell: (r) => h('code', {}, `${r.topic}[${r.partition}]@${r.offset}`) },
    ],
    rows,
  );
}
