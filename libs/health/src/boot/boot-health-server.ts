import { createServer, type Server } from 'node:http';
import { once } from 'node:events';

export interface BootHealthServer {
  readonly url: string;
  /** What /health/ready names while the boot waits: dependency → the last reason. */
  waiting(dependency: string, reason: string): void;
  up(dependency: string): void;
  /** Dependencies answered; the application is being built (topics, consumer group). */
  starting(): void;
  close(): Promise<void>;
}

/**
 * The health endpoints while the service boots, on HTTP_PORT, before any dependency answers:
 * /health/live is 200 (the process serves: no restart would help), /health/ready is 503 naming
 * what the boot waits for. Closed just before the application listens on the same port.
 */
export async function startBootHealthServer(port: number, host = '0.0.0.0'): Promise<BootHealthServer> {
  const waitingFor = new Map<string, string>();
  let phase: 'waiting for dependencies' | 'starting' = 'waiting for dependencies';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]?.replace(/\/+$/, '');
    const live = path === '/health/live';
    const body = live
      ? { status: 'ok' }
      : { status: 'starting', phase, waitingFor: Object.fromEntries(waitingFor) };
    res.writeHead(live ? 200 : 503, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify(body));
  });
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}`,
    waiting: (d, reason) => void waitingFor.set(d, reason),
    up: (d) => void waitingFor.delete(d),
    starting: () => {
      phase = 'starting';
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
