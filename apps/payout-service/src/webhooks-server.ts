import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type AppLogger } from '#observability';
import { PROBLEM_JSON, problemDetails } from '#operations';
import {
  DELIVERY_STATUS,
  type DeliveryResult,
  isRefusal,
  RefusalLimiter,
  sourceKey,
  type WebhookIntake,
  type WebhookListenerSettings,
} from '#pipeline';

export interface WebhooksServer {
  /** Where the provider posts: `<url>/webhooks/v1/<accountId>` and `/webhooks/v2/<accountId>`. */
  readonly url: string;
  close(): Promise<void>;
}

/** The request path without its query string (the problem's `instance`). */
const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?')[0] || '/';

const ROUTE = /^\/webhooks\/(v1|v2)\/([A-Za-z0-9_.-]{1,64})\/?$/;

/**
 * The webhook listener: a port of its own (WEBHOOKS_PORT), so the one endpoint the provider must
 * reach can be exposed while health, metrics and the operations API stay internal (ADR 0013).
 * Plain node:http: the signature is over the raw bytes, which are read here and handed on
 * untouched; anything but a POST to a configured account's path is a 404 that says nothing more.
 *
 * Anyone can reach it, so it is bounded (issue 21, finding 7): connections at once
 * (WEBHOOKS_MAX_CONNECTIONS), header size and count, time for the headers (5 s) and the whole
 * request (10 s), idle sockets; and refusals per source address (WEBHOOKS_REFUSALS_PER_SOURCE per
 * WEBHOOKS_REFUSALS_WINDOW_MS, then 429 with Retry-After). A delivery is verified before the limit
 * applies, so one that verifies (the provider's) is never refused for it, whoever else shares or
 * floods the address; the limit costs the attacker its answers, and the log its lines.
 */
export async function startWebhooksServer(
  intake: WebhookIntake,
  port: number,
  logger: AppLogger,
  settings: WebhookListenerSettings,
): Promise<WebhooksServer> {
  const limiter = new RefusalLimiter(settings.refusalsPerSource, settings.refusalsWindowMs);
  const server: Server = createServer({ maxHeaderSize: 8_192 }, (req, res) => {
    handle(intake, limiter, req, res).catch((e: unknown) => {
      logger.error({ err: e }, 'webhook listener: request failed');
      if (!res.headersSent) answer(res, 500, 0, pathOf(req));
      else res.destroy();
    });
  });
  server.maxConnections = settings.maxConnections;
  server.maxHeadersCount = 32;
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 5_000;
  // A socket that sends nothing for this long is closed (a slow body is bounded by requestTimeout).
  server.timeout = 15_000;
  server.maxRequestsPerSocket = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** What each refusal says: the same few words for every occurrence, nothing about the request. */
const REFUSALS: Readonly<Record<number, { code: string; detail: string }>> = {
  401: {
    code: 'bad_signature',
    detail: 'the delivery is not signed by this account, or is outside the replay window',
  },
  404: { code: 'not_found', detail: 'no webhook endpoint here' },
  413: { code: 'payload_too_large', detail: 'the delivery is larger than this endpoint accepts' },
  429: {
    code: 'rate_limited',
    detail: 'too many refused deliveries from this address: try again after Retry-After',
  },
  500: { code: 'internal_error', detail: 'the delivery could not be taken; send it again' },
};

/**
 * 200 answers `{"status":"ok"}`; a refusal answers RFC 9457 problem details, as the operations API
 * does. A 401 does not say whether the signature or the time was wrong, and a 404 does not say
 * whether the account or the path was: the listener faces anyone.
 */
function answer(res: ServerResponse, status: number, retryAfterSeconds = 0, path = '/'): void {
  if (status < 400) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok' }));
    return;
  }
  const headers: Record<string, string> = { 'content-type': `${PROBLEM_JSON}; charset=utf-8` };
  if (status === 429) headers['retry-after'] = String(retryAfterSeconds);
  const refusal = REFUSALS[status] ?? { code: 'bad_request', detail: 'refused' };
  res.writeHead(status, headers);
  res.end(JSON.stringify(problemDetails({ status, ...refusal, path })));
}

async function handle(
  intake: WebhookIntake,
  limiter: RefusalLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const source = sourceKey(req.socket.remoteAddress);
  const path = pathOf(req);
  const retryAfter = limiter.retryAfterSeconds(source);
  /** Answers a result; a refusal counts against the source (a 429 does not extend its window). */
  const reply = (result: DeliveryResult): void => {
    if (isRefusal(result) && result !== 'rate_limited') limiter.refused(source);
    if (result === 'too_large') res.setHeader('connection', 'close');
    answer(res, DELIVERY_STATUS[result], retryAfter, path);
  };
  const route = ROUTE.exec(path);
  if (req.method !== 'POST' || !route) {
    if (retryAfter > 0) return answer(res, 429, retryAfter, path);
    limiter.refused(source);
    return answer(res, 404, 0, path);
  }
  const version = route[1] === 'v1' ? 'v1' : 'v2';
  const accountId = route[2] ?? '';
  if (!intake.knows(accountId)) {
    return reply(
      await intake.receive({ version, accountId, headers: {}, rawBody: Buffer.alloc(0) }, retryAfter > 0),
    );
  }
  const tooLarge = () =>
    retryAfter > 0 ? intake.refuseRateLimited(version) : intake.refuseTooLarge(version);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > intake.maxBodyBytes) return reply(tooLarge());
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > intake.maxBodyBytes) return reply(tooLarge());
    chunks.push(chunk);
  }
  const headers: Record<string, string | undefined> = {};
  for (const name of ['x-webhook-timestamp', 'x-webhook-signature']) {
    const v = req.headers[name];
    headers[name] = Array.isArray(v) ? v[0] : v;
  }
  reply(
    await intake.receive({ version, accountId, headers, rawBody: Buffer.concat(chunks) }, retryAfter > 0),
  );
}
