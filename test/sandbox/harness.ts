import assert from 'node:assert/strict';
import {
  startSandbox,
  legacyHttpStatus,
  type LegacyRow,
  type RunningSandbox,
  type SandboxOptions,
  type V2Row,
} from '#sandbox';

export interface Res {
  readonly http: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

export interface CallOptions {
  /** Bearer token; `null` sends none. Defaults to the harness token. */
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
  /** Raw body text instead of JSON.stringify(body). */
  readonly raw?: string;
}

export const V2_HEADERS = {
  'x-client-id': 'sandbox_client_id',
  'x-client-secret': 'sandbox_client_secret',
  'x-api-version': '2024-01-01',
};

let counter = 0;

/** A sandbox started in-process on port 0, with helpers that speak real HTTP to it. */
export class Harness {
  token = '';

  private constructor(readonly sb: RunningSandbox) {}

  static async start(options: SandboxOptions = {}): Promise<Harness> {
    const h = new Harness(await startSandbox({ port: 0, ...options }));
    await h.authorize();
    return h;
  }

  close(): Promise<void> {
    return this.sb.close();
  }

  id(prefix = 'T'): string {
    counter += 1;
    return `${prefix}${Date.now().toString(36)}${counter}`;
  }

  async authorize(headers: Record<string, string> = {}): Promise<Res> {
    const res = await this.call('POST', '/payout/v1/authorize', undefined, {
      token: null,
      headers: { 'x-client-id': this.sb.clientId, 'x-client-secret': this.sb.clientSecret, ...headers },
    });
    const data = res.body.data as { token?: string } | undefined;
    if (data?.token) this.token = data.token;
    return res;
  }

  /** Reset all state through the control API, then authorize again. */
  async fresh(): Promise<void> {
    await this.ctl('POST', '/__sandbox/reset');
    await this.authorize();
  }

  async call(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<Res> {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined = opts.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const r = await fetch(`${this.sb.url}${path}`, { method, headers, body: payload });
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? {} : JSON.parse(text);
    } catch {
      parsed = { text };
    }
    return { http: r.status, body: parsed as Record<string, unknown>, headers: r.headers };
  }

  post(path: string, body?: unknown, opts?: CallOptions): Promise<Res> {
    return this.call('POST', path, body, opts);
  }

  get(path: string, query: Record<string, string> = {}, opts?: CallOptions): Promise<Res> {
    const qs = new URLSearchParams(query).toString();
    return this.call('GET', qs ? `${path}?${qs}` : path, undefined, opts);
  }

  v2(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
    return this.call(method, path, body, { token: null, headers: { ...V2_HEADERS, ...headers } });
  }

  async ctl(method: string, path: string, body?: unknown): Promise<Res> {
    const res = await this.call(method, path, body, { token: null });
    assert.ok(res.http < 300, `control ${method} ${path} -> ${res.http} ${JSON.stringify(res.body)}`);
    return res;
  }

  advance(ms: number): Promise<Res> {
    return this.ctl('POST', '/__sandbox/clock/advance', { ms });
  }

  flags(flags: Record<string, unknown>): Promise<Res> {
    return this.ctl('POST', '/__sandbox/flags', flags);
  }

  fault(spec: Record<string, unknown>): Promise<Res> {
    return this.ctl('POST', '/__sandbox/faults', spec);
  }

  /** Registers a beneficiary; `aged` moves the clock past the 30-minute rule. */
  async addBene(fields: Record<string, string>, aged = true): Promise<string> {
    const beneId = fields.beneId ?? this.id('B');
    const res = await this.post('/payout/v1/addBeneficiary', {
      beneId,
      name: 'Test Payee',
      email: 'payee@example.com',
      phone: '9876543210',
      address1: '1 Main Road',
      ...fields,
    });
    assert.equal(res.body.status, 'SUCCESS', JSON.stringify(res.body));
    if (aged) {
      // 31 minutes also outlive the 6-minute bearer token.
      await this.advance(31 * 60_000);
      await this.authorize();
    }
    return beneId;
  }

  direct(
    bene: Record<string, string>,
    extra: Record<string, unknown> = {},
    opts?: CallOptions,
  ): Promise<Res> {
    return this.post(
      '/payout/v1.2/directTransfer',
      {
        transferId: this.id(),
        amount: '10.00',
        beneDetails: { name: 'Test Payee', phone: '9876543210', email: 'p@example.com', ...bene },
        ...extra,
      },
      opts,
    );
  }

  async transferToken(transferId: string, vpa = 'success@upi'): Promise<string> {
    const res = await this.ctl('POST', '/__sandbox/transfer-tokens', { transfer_id: transferId, vpa });
    return String(res.body.transfer_token);
  }
}

export function assertRow(res: Res, row: LegacyRow, label = ''): void {
  const where = `${label} ${JSON.stringify(res.body)}`;
  assert.equal(res.body.status, row.status, where);
  assert.equal(res.body.subCode, row.subCode, where);
  assert.equal(res.body.message, row.message, where);
  assert.equal(res.http, legacyHttpStatus(row), where);
}

export function assertV2Row(res: Res, row: V2Row, label = ''): void {
  const where = `${label} ${JSON.stringify(res.body)}`;
  assert.equal(res.http, row.http, where);
  assert.deepEqual(res.body, { type: row.type, code: row.code, message: row.message }, where);
}

export const SUCCESS_ACCOUNT = { bankAccount: '026291800001191', ifsc: 'YESB0000262' };
