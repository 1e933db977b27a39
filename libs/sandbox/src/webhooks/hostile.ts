import { type ClientRequest } from 'node:http';
import { seeded } from '../core/faults.js';
import { postOnce } from './http-post.js';
import { type CapturedWebhook, type WebhookDispatcher } from './webhook.dispatcher.js';
import { type WebhookVersion } from './webhook.types.js';

/**
 * What the hostile sender sends, each a replay of a genuine webhook the sandbox sent:
 * - `v1-replay`: a captured v1 webhook, byte for byte;
 * - `v1-reaimed`: a captured v1 webhook aimed at another payout (`reaimV1`): its signature still
 *   verifies, because the v1 scheme signs only the values, sorted by name, run together;
 * - `v2-stale`: a captured v2 webhook with its original timestamp and signature;
 * - `v2-bad-signature`: a captured v2 webhook with a fresh timestamp and the old signature.
 */
export const HOSTILE_VARIANTS = ['v1-replay', 'v1-reaimed', 'v2-stale', 'v2-bad-signature'] as const;
export type HostileVariant = (typeof HOSTILE_VARIANTS)[number];

export interface HostileOptions {
  /** Where each format goes (a receiver may take v1 and v2 on different paths). */
  readonly urls: Readonly<Record<WebhookVersion, string>>;
  /** Steady rate (real time): one request every 1000 / perSecond ms, variants in turn. */
  readonly perSecond: number;
  readonly variants: readonly HostileVariant[];
  /** Stop after this many requests; unlimited when absent. */
  readonly total?: number;
  readonly seed: number;
}

export interface VariantCounts {
  /** Requests sent. */
  sent: number;
  /** Answered 2xx: the receiver took it (for a re-aimed or stale webhook, that is the finding). */
  accepted: number;
  /** Answered 4xx / 5xx, or no answer (connection error, timeout). */
  refused: number;
  serverError: number;
  noAnswer: number;
  /** Turns with nothing captured to replay in that format yet. */
  noCapture: number;
  /** v1-reaimed only: aimed at an id the provider knows (another payout), not a made-up one. */
  atKnownId: number;
}

const zero = (): VariantCounts => ({
  sent: 0,
  accepted: 0,
  refused: 0,
  serverError: 0,
  noAnswer: 0,
  noCapture: 0,
  atKnownId: 0,
});

/** Event types whose re-aiming does harm: they say the money did not move or came back. */
const NEGATIVE = new Set(['TRANSFER_FAILED', 'TRANSFER_REVERSED', 'TRANSFER_REJECTED']);
/** Extra fields with empty values: they change nothing in the signed text. */
const EXTRA_FIELDS = { mode: '', note: '' };

/**
 * A captured v1 webhook's fields re-aimed at a shorter transferId: the characters cut off go to
 * the front of `utr`, `referenceId` is renamed to `refId` (which sorts into the same place), and
 * empty extra fields are added. The values in sorted-name order run together to the same text, so
 * the original signature still verifies. The cut is the shortest that lands on an id `isKnown`
 * accepts (another payout), else one character. Undefined when the id is too short to cut.
 */
export function reaimV1(
  fields: Readonly<Record<string, string>>,
  isKnown: (id: string) => boolean,
): { readonly fields: Record<string, string>; readonly target: string; readonly known: boolean } | undefined {
  const id = fields['transferId'] ?? '';
  if (id.length < 2) return undefined;
  let cut = 1;
  for (let k = 1; k < Math.min(id.length, 9); k += 1) {
    if (isKnown(id.slice(0, id.length - k))) {
      cut = k;
      break;
    }
  }
  const target = id.slice(0, id.length - cut);
  const { referenceId = '', ...rest } = fields;
  return {
    fields: {
      ...rest,
      ...EXTRA_FIELDS,
      transferId: target,
      utr: id.slice(id.length - cut) + (fields['utr'] ?? ''),
      refId: referenceId,
    },
    target,
    known: isKnown(target),
  };
}

/**
 * Replays captured webhooks at a receiver at a steady rate, the way someone who can read them on
 * the way (a proxy, a log) would. Needs no secret. Counts what it sent, by variant, and how the
 * receiver answered.
 */
export class HostileSender {
  private options: HostileOptions | undefined;
  private timer: NodeJS.Timeout | undefined;
  private turn = 0;
  private sent = 0;
  private random = seeded(1);
  private counts = new Map<HostileVariant, VariantCounts>();
  private readonly active = new Set<ClientRequest>();

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly isKnown: (id: string) => boolean,
  ) {}

  start(options: HostileOptions): void {
    this.stop();
    this.options = options;
    this.turn = 0;
    this.sent = 0;
    this.random = seeded(options.seed);
    this.counts = new Map(options.variants.map((v) => [v, zero()]));
    this.timer = setInterval(() => this.tick(), Math.max(1, Math.round(1000 / options.perSecond)));
    this.timer.unref();
  }

  /** Stops sending (requests in flight finish); the counts stay readable. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops and ends requests in flight (the sandbox closes). */
  close(): void {
    this.stop();
    for (const r of this.active) r.destroy();
    this.active.clear();
  }

  view(): Record<string, unknown> {
    const o = this.options;
    return {
      running: this.timer !== undefined,
      urls: o?.urls ?? null,
      perSecond: o?.perSecond ?? 0,
      total: o?.total ?? null,
      counts: Object.fromEntries(this.counts),
    };
  }

  private pick(list: readonly CapturedWebhook[]): CapturedWebhook | undefined {
    return list[Math.floor(this.random() * list.length)];
  }

  private build(
    variant: HostileVariant,
    c: VariantCounts,
  ): { body: string; headers: Record<string, string> } | undefined {
    if (variant === 'v1-replay' || variant === 'v1-reaimed') {
      const all = this.dispatcher.captures('v1');
      if (variant === 'v1-replay') {
        const w = this.pick(all);
        return w && { body: w.body, headers: { ...w.headers } };
      }
      const negative = all.filter((w) => NEGATIVE.has(w.event));
      const w = this.pick(negative.length > 0 ? negative : all);
      if (!w) return undefined;
      const aimed = reaimV1(Object.fromEntries(new URLSearchParams(w.body)), this.isKnown);
      if (!aimed) return undefined;
      if (aimed.known) c.atKnownId += 1;
      return { body: new URLSearchParams(aimed.fields).toString(), headers: { ...w.headers } };
    }
    const w = this.pick(this.dispatcher.captures('v2'));
    if (!w) return undefined;
    if (variant === 'v2-stale') return { body: w.body, headers: { ...w.headers } };
    return { body: w.body, headers: { ...w.headers, 'x-webhook-timestamp': String(Date.now()) } };
  }

  private tick(): void {
    const o = this.options;
    if (!o) return;
    const variant = o.variants[this.turn % o.variants.length];
    this.turn += 1;
    if (!variant) return;
    const c = this.counts.get(variant) ?? zero();
    this.counts.set(variant, c);
    const request = this.build(variant, c);
    if (!request) {
      c.noCapture += 1;
      return;
    }
    c.sent += 1;
    this.sent += 1;
    if (o.total !== undefined && this.sent >= o.total) this.stop();
    const url = variant.startsWith('v1') ? o.urls.v1 : o.urls.v2;
    void postOnce(url, request.body, request.headers, 5_000, this.active).then((res) => {
      if (res.status === undefined) c.noAnswer += 1;
      else if (res.status >= 200 && res.status < 300) c.accepted += 1;
      else if (res.status >= 500) c.serverError += 1;
      else c.refused += 1;
    });
  }
}
