import http from 'node:http';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
export const REPO = resolve(import.meta.dirname, '../../..');
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export { PrivatePostgres } from '#test-support';

/** A node child process with its output appended to a log file, restartable under the same name. */
export class NodeProcess {
  private child: ChildProcess | undefined;
  private readonly log: WriteStream;
  /** Set when the process exits: its code or signal. */
  lastExit: string | undefined;
  starts = 0;
  private watchers: { re: RegExp; resolve: (at: number | undefined) => void }[] = [];
  private signalled = false;
  /** Called when the process exits without being told to (a supervisor would restart it). */
  onUnexpectedExit: ((exit: string) => void) | undefined;

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: Record<string, string>,
    logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    this.starts += 1;
    this.log.write(`\n==== chaos: start #${this.starts} of ${this.name} at ${new Date().toISOString()}\n`);
    const child = spawn(process.execPath, [join(REPO, this.script)], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(this.log, { end: false });
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      if (this.watchers.length === 0) return;
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        this.watchers = this.watchers.filter((w) => {
          if (!w.re.test(line)) return true;
          w.resolve(Date.now());
          return false;
        });
      }
    });
    child.stderr?.pipe(this.log, { end: false });
    child.on('exit', (code, signal) => {
      this.lastExit = signal ?? String(code);
      this.log.write(`==== chaos: ${this.name} exited (${this.lastExit}) at ${new Date().toISOString()}\n`);
      if (this.child === child && !this.signalled) this.onUnexpectedExit?.(this.lastExit);
    });
    this.signalled = false;
    this.child = child;
  }

  /** When the first stdout line matching `re` arrives (from now on); undefined after `timeoutMs`. */
  nextLine(re: RegExp, timeoutMs = 300_000): Promise<number | undefined> {
    return new Promise((resolve) => {
      const w = { re, resolve };
      this.watchers.push(w);
      setTimeout(() => {
        this.watchers = this.watchers.filter((x) => x !== w);
        resolve(undefined);
      }, timeoutMs).unref();
    });
  }

  /** Sends a signal; resolves when the process has exited (or after `timeoutMs`). */
  async signal(sig: NodeJS.Signals, timeoutMs = 30_000): Promise<boolean> {
    const child = this.child;
    if (!child || !this.running) return true;
    this.signalled = true;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    this.log.write(`==== chaos: ${sig} to ${this.name} (pid ${child.pid}) at ${new Date().toISOString()}\n`);
    child.kill(sig);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs)));
    const ok = await Promise.race([exited.then(() => true), late]);
    clearTimeout(timer);
    return ok;
  }

  /**
   * SIGKILL as the chaos run counts it: delivered to a live pid, and the process then seen gone
   * (its exit event, and the pid no longer signalable).
   */
  async kill(timeoutMs = 15_000): Promise<{ pid: number | undefined; delivered: boolean; gone: boolean }> {
    const child = this.child;
    const pid = child?.pid;
    if (!child || !this.running || pid === undefined) return { pid, delivered: false, gone: false };
    this.signalled = true;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    this.log.write(`==== chaos: SIGKILL to ${this.name} (pid ${pid}) at ${new Date().toISOString()}\n`);
    const delivered = child.kill('SIGKILL');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs)));
    const exit = await Promise.race([exited.then(() => true), late]);
    clearTimeout(timer);
    return { pid, delivered, gone: exit && !pidAlive(pid) };
  }

  async stop(): Promise<void> {
    if (!(await this.signal('SIGTERM', 20_000))) await this.signal('SIGKILL');
  }

  /** The run is over: no grace needed. */
  async close(): Promise<void> {
    await this.signal('SIGKILL');
    await new Promise<void>((r) => this.log.end(() => r()));
  }
}

/** Whether a process with this pid exists (signal 0 reaches it). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:port (within `timeoutMs`). */
export function tcpOpen(port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls until `probe` answers `want`; whether it did within `timeoutMs`. */
export async function until(
  probe: () => Promise<boolean>,
  want: boolean,
  timeoutMs: number,
): Promise<boolean> {
  const started = Date.now();
  for (;;) {
    if ((await probe().catch(() => !want)) === want) return true;
    if (Date.now() - started > timeoutMs) return false;
    await sleep(200);
  }
}

/** Polls an HTTP URL until it answers 2xx; resolves with the time it took, or throws. */
export async function waitForHttp(url: string, timeoutMs: number, alive?: () => boolean): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (alive && !alive()) throw new Error(`process behind ${url} exited while starting`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return Date.now() - started;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer 2xx within ${timeoutMs} ms`);
}

export async function ensureDir(dir: string, clean = false): Promise<void> {
  if (clean) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}

/**
 * The public webhooks port in front of the service instances, as a load balancer would be: each
 * request goes to the instances in turn, and to the next one when an instance does not take the
 * connection (killed, restarting). The provider sees one URL.
 */
export class WebhookBalancer {
  private server: http.Server | undefined;
  private next = 0;

  constructor(
    readonly port: number,
    private readonly upstreams: readonly number[],
  ) {}

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('error', () => res.destroy());
      req.on('end', () => this.forward(req, res, Buffer.concat(chunks)));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const n = this.upstreams.length;
    const order = this.upstreams.map((_, i) => this.upstreams[(this.next + i) % n] ?? 0);
    this.next = (this.next + 1) % Math.max(1, n);
    const attempt = (k: number): void => {
      const port = order[k];
      if (port === undefined) {
        if (!res.headersSent) res.writeHead(502).end();
        return;
      }
      const up = http.request(
        {
          host: '127.0.0.1',
          port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: `127.0.0.1:${port}` },
          agent: false,
          timeout: 10_000,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        },
      );
      up.on('timeout', () => up.destroy(new Error('timeout')));
      up.on('error', () => {
        // Refused or reset before an answer: the next instance; after one started: give up.
        if (res.headersSent) res.destroy();
        else attempt(k + 1);
      });
      up.end(body);
    };
    attempt(0);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
