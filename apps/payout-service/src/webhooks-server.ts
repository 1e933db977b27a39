import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type AppLogger } from '#observability';
import { DELIVERY_STATUS, type WebhookIntake } from '#pipeline';

export interface WebhooksServer {
  /** Where the provider posts: `<url>/webhooks/v1/<accountId>` and `/webhooks/v2/<accountId>`. */
  readonly url: string;
  close(): Promise<void>;
}

const ROUTE = /^\/webhooks\/(v1|v2)\/([A-Za-z0-9_.-]{1,64})\/?$/;

/**
 * The webhook listener: a port of its own (WEBHOOKS_PORT), so the one endpoint the provider must
 * reach can be exposed while health, metrics and the operations API stay internal (ADR 0013).
 * Plain node:http: the signature is over the raw bytes, which are read here and handed on
 * untouched; anything but a POST to a configured account's path is a 404 that says nothing more.
 */
export async function startWebhooksServer(
  intake: WebhookIntake,
  port: number,
  logger: AppLogger,
): Promise<WebhooksServer> {
  const server: Server = createServer((req, res) => {
    handle(intake, req, res).catch((e: unknown) => {
      logger.error({ err: e }, 'webhook listener: request failed');
      if (!res.headersSent) answer(res, 500);
      else res.destroy();
    });
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 5_000;
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

function answer(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: status === 200 ? 'ok' : 'refused' }));
}

async function handle(intake: WebhookIntake, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const route = ROUTE.exec((req.url ?? '').split('?')[0] ?? '');
  if (req.method !== 'POST' || !route) return answer(res, 404);
  const version = route[1] === 'v1' ? 'v1' : 'v2';
  const accountId = route[2] ?? '';
  if (!intake.knows(accountId)) {
    await intake.receive({ version, accountId, headers: {}, rawBody: Buffer.alloc(0) });
    return answer(res, 404);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > intake.maxBodyBytes) {
    intake.refuseTooLarge(version);
    res.setHeader('connection', 'close');
    return answer(res, 413);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > intake.maxBodyBytes) {
      intake.refuseTooLarge(version);
      res.setHeader('connection', 'close');
      return answer(res, 413);
    }
    chunks.push(chunk);
  }
  const headers: Record<string, string | undefined> = {};
  for (const name of ['x-webhook-timestamp', 'x-webhook-signature']) {
    const v = req.headers[name];
    headers[name] = Array.isArray(v) ? v[0] : v;
  }
  const result = await intake.receive({ version, accountId, headers, rawBody: Buffer.concat(chunks) });
  answer(res, DELIVERY_STATUS[result]);
}
