import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

/**
 * A local OTLP/HTTP endpoint that reads every export and discards it (BENCH_TRACING=otlp): the
 * service then pays for its spans and their export over HTTP, and no collector is needed.
 */
export interface OtlpSink {
  readonly url: string;
  readonly requests: number;
  readonly bytes: number;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let requests = 0;
  let bytes = 0;
  const server: Server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get bytes() {
      return bytes;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
