import { createHmac } from 'node:crypto';
import http from 'node:http';
import { type AddressInfo } from 'node:net';

export interface Received {
  readonly headers: http.IncomingHttpHeaders;
  readonly raw: string;
  /** v1: the form fields; v2: the JSON body. */
  readonly body: Record<string, unknown>;
  /** The event name (v1 `event`, v2 `type`). */
  readonly event: string;
  /** v1 `transferId`, v2 `data.transfer_id`. */
  readonly transferId: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * A tiny webhook endpoint for tests (node:http on port 0): records what arrives and answers
 * what `answer` says (a status, or 'hang' to never answer).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Called before answering; may wait (e.g. to look at the provider's status first). */
  answer: (r: Received) => number | 'hang' | Promise<number> = () => 200;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const json = String(req.headers['content-type']).startsWith('application/json');
      const body: Record<string, unknown> = json
        ? (JSON.parse(raw) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(raw));
      const data = (body.data ?? {}) as Record<string, unknown>;
      const r: Received = {
        headers: req.headers,
        raw,
        body,
        event: String(json ? body.type : body.event),
        transferId: text(json ? data.transfer_id : body.transferId),
      };
      this.received.push(r);
      void Promise.resolve(this.answer(r)).then((status) => {
        if (status !== 'hang') res.writeHead(status).end();
      });
    });
  });

  static async start(): Promise<WebhookReceiver> {
    const r = new WebhookReceiver();
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  clear(): void {
    this.received.length = 0;
    this.answer = () => 200;
  }

  for(transferId: string): Received[] {
    return this.received.filter((r) => r.transferId === transferId);
  }

  /** Waits (polling, at most `ms`) until `pred` holds; throws with what arrived otherwise. */
  async until(pred: (all: Received[]) => boolean, ms = 5_000): Promise<void> {
    const end = Date.now() + ms;
    while (!pred(this.received)) {
      if (Date.now() > end) {
        throw new Error(`webhooks not as expected: ${JSON.stringify(this.received.map((r) => r.event))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const hmac = (secret: string, text: string): string =>
  createHmac('sha256', secret).update(text).digest('base64');

/** The test's own check of a webhook's signature, written from provider-facts.md. */
export function signatureValid(r: Received, secret: string): boolean {
  const ts = r.headers['x-webhook-timestamp'];
  if (typeof ts === 'string') return hmac(secret, ts + r.raw) === r.headers['x-webhook-signature'];
  const fields = r.body as Record<string, string>;
  const text = Object.keys(fields)
    .filter((k) => k !== 'signature')
    .sort()
    .map((k) => fields[k])
    .join('');
  return hmac(secret, text) === fields.signature;
}
