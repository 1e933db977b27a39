import { Agent, request } from 'undici';
import { type HttpAnswer } from '../core/http-answer.js';

export interface Timeouts {
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
}

export interface TransportRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeouts: Timeouts;
}

/**
 * `sent: false` only when the request provably never reached the provider (connection refused,
 * DNS, connect timeout): the one case a money-moving call may be repeated blindly.
 */
export type TransportOutcome =
  | { readonly ok: true; readonly answer: HttpAnswer }
  | { readonly ok: false; readonly sent: boolean; readonly errorCode: string };

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  // An argument undici refuses before it opens or writes anything (a header value with CR/LF).
  'UND_ERR_INVALID_ARG',
]);

const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpTransport {
  send(req: TransportRequest): Promise<TransportOutcome>;
  close(): Promise<void>;
}

/** undici with keep-alive; one Agent per connect timeout, since that is fixed per dispatcher. */
export class UndiciTransport implements HttpTransport {
  private readonly agents = new Map<number, Agent>();

  constructor(private readonly connections = 64) {}

  async send(req: TransportRequest): Promise<TransportOutcome> {
    try {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        dispatcher: this.agent(req.timeouts.connectMs),
        headersTimeout: req.timeouts.headersMs,
        bodyTimeout: req.timeouts.bodyMs,
      });
      const body = await readCapped(res.body);
      return { ok: true, answer: { statusCode: res.statusCode, headers: res.headers, body } };
    } catch (e) {
      const errorCode = errorCodeOf(e);
      return { ok: false, sent: !NOT_SENT_CODES.has(errorCode), errorCode };
    }
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((a) => a.close()));
  }

  private agent(connectMs: number): Agent {
    let a = this.agents.get(connectMs);
    if (!a) {
      a = new Agent({
        connections: this.connections,
        keepAliveTimeout: 30_000,
        connect: { timeout: connectMs },
      });
      this.agents.set(connectMs, a);
    }
    return a;
  }
}

async function readCapped(body: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    // A huge body is not a provider answer; keep reading would only cost memory.
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('answer too large'), { code: 'BODY_TOO_LARGE' });
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Only the error code travels on: undici messages can quote request details. */
export function errorCodeOf(e: unknown): string {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    if (typeof cur === 'object' && 'code' in cur && typeof cur.code === 'string') return cur.code;
    cur = typeof cur === 'object' && 'cause' in cur ? cur.cause : undefined;
  }
  return 'UNKNOWN_TRANSPORT_ERROR';
}
