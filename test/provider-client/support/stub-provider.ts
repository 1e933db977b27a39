import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';

export interface StubRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** What the stub answers. `hang` never answers; `reset` destroys the socket after reading the request. */
export interface StubReply {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A string is sent as is; anything else as JSON. */
  readonly body?: unknown;
  readonly delayMs?: number;
  readonly hang?: boolean;
  readonly reset?: boolean;
  /** Send the headers and this much of the body, then stall. */
  readonly stallBody?: string;
}

export type StubHandler = (req: StubRequest, callNo: number) => StubReply | Promise<StubReply>;

export const AUTHORIZE_PATH = '/payout/v1/authorize';

/**
 * A provider stand-in on an ephemeral port. Tell it what to answer per path; it records every
 * request. Authorize answers a valid token unless told otherwise.
 */
export class StubProvider {
  private readonly handlers = new Map<string, StubHandler>();
  private readonly log: StubRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private tokenSeq = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<StubProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const stub = new StubProvider(server, `http://127.0.0.1:${port}`);
    server.on('connection', (s: Socket) => {
      stub.sockets.add(s);
      s.on('close', () => stub.sockets.delete(s));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void stub.handle(req, res));
    stub.reset();
    return stub;
  }

  /** Forget calls and handlers; authorize goes back to issuing fresh tokens valid for 6 minutes. */
  reset(): void {
    this.log.length = 0;
    this.handlers.clear();
    this.on(AUTHORIZE_PATH, () => ({ body: this.tokenBody(360) }));
  }

  tokenBody(lifetimeSeconds: number): unknown {
    this.tokenSeq += 1;
    return {
      status: 'SUCCESS',
      subCode: '200',
      message: 'Token generated',
      data: {
        token: `bearer-token-${this.tokenSeq}`,
        expiry: Math.floor(Date.now() / 1000) + lifetimeSeconds,
      },
    };
  }

  on(path: string, handler: StubHandler | StubReply): this {
    this.handlers.set(path, typeof handler === 'function' ? handler : () => handler);
    return this;
  }

  calls(path?: string): StubRequest[] {
    return path === undefined ? [...this.log] : this.log.filter((r) => r.path === path);
  }

  count(path: string): number {
    return this.calls(path).length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const r: StubRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    this.log.push(r);
    const handler = this.handlers.get(r.path);
    const reply: StubReply = handler
      ? await handler(r, this.count(r.path))
      : { status: 404, body: { status: 'ERROR', subCode: '405', message: 'Invalid URL' } };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.hang) return;
    if (reply.reset) {
      req.socket.destroy();
      return;
    }
    if (reply.stallBody !== undefined) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write(reply.stallBody);
      return;
    }
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(text);
  }
}
