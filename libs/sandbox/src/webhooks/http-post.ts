import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  readonly status?: number;
  readonly error?: string;
}

/**
 * One webhook POST on a fresh connection. Resolves (never rejects) with the HTTP status once the
 * answer's head arrives, or with an error ('timeout', a socket error code) when none arrives
 * within `timeoutMs`. `active` holds the request while it runs, so closing the sandbox can end it.
 */
export function postOnce(
  url: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
  active: Set<http.ClientRequest>,
): Promise<PostResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ error: 'invalid url' });
      return;
    }
    let settled = false;
    const finish = (r: PostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      active.delete(req);
      resolve(r);
    };
    const send = target.protocol === 'https:' ? https.request : http.request;
    const req = send(
      target,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' },
      },
      (res) => {
        res.resume();
        res.on('error', () => undefined);
        finish({ status: res.statusCode ?? 0 });
      },
    );
    active.add(req);
    const timer = setTimeout(() => {
      finish({ error: 'timeout' });
      req.destroy();
    }, timeoutMs);
    timer.unref();
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? 'request failed' }));
    req.end(body);
  });
}
