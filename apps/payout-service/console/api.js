// @ts-check
// The operations API, from the browser. Signed in with the company's identity provider, the
// console holds no secret at all: the session is an HttpOnly cookie the page cannot read, sent
// only to this origin. Signed in with a token (automation, break-glass), the token is typed in by
// the operator, kept in this tab's sessionStorage (gone when the tab closes), sent only as a
// bearer header to this origin, never put in a URL.

const TOKEN_KEY = 'payouts-console-token';
/** `/ops/` beside the console (this module is `<base>/console/api.js`): right behind a path prefix too. */
const OPS = new URL('../ops/', import.meta.url);

export class ApiError extends Error {
  /** @param {number} status @param {string | undefined} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A failure, in words for the operator. @param {unknown} e */
export function describe(e) {
  if (e instanceof ApiError) return `${e.status}${e.code ? ` ${e.code}` : ''}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  /** @param {string} t */
  set: (t) => sessionStorage.setItem(TOKEN_KEY, t),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** Called on a 401: the token is gone or wrong. @type {() => void} */
let onUnauthorized = () => {};
/** @param {() => void} f */
export function whenUnauthorized(f) {
  onUnauthorized = f;
}

/**
 * @param {string} method
 * @param {string} path relative to /ops/, already encoded
 * @param {unknown} [body]
 * @returns {Promise<Response>}
 */
async function raw(method, path, body) {
  const t = token.get();
  /** @type {Record<string, string>} */
  // X-Ops-Console: the service takes a change made with the session cookie only with it (CSRF).
  const headers = { accept: 'application/json, application/problem+json', 'x-ops-console': '1' };
  if (t) headers['authorization'] = `Bearer ${t}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(new URL(path, OPS), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    cache: 'no-store',
    redirect: 'error',
  });
  if (res.ok) return res;
  // Errors are RFC 9457 problem details: `detail` says what went wrong, `code` which rule.
  /** @type {{ code?: unknown, detail?: unknown, message?: unknown }} */
  let detail = {};
  try {
    /** @type {unknown} */
    const body = await res.json();
    if (body && typeof body === 'object') detail = body;
  } catch {
    // not JSON: the status says enough
  }
  if (res.status === 401) onUnauthorized();
  const m = detail.detail ?? detail.message;
  const message = Array.isArray(m) ? m.map(String).join('; ') : typeof m === 'string' ? m : res.statusText;
  throw new ApiError(res.status, typeof detail.code === 'string' ? detail.code : undefined, message);
}

/**
 * @template T
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<T>}
 */
export async function call(method, path, body) {
  const res = await raw(method, path, body);
  const text = await res.text();
  /** @type {unknown} */
  const value = text ? JSON.parse(text) : {};
  return /** @type {T} */ (value);
}

/** @param {string} path @returns {Promise<Blob>} */
export async function download(path) {
  return (await raw('GET', path)).blob();
}

/**
 * The service's sign-in methods, and whether this browser's session cookie (HttpOnly: the page
 * cannot see it) is live (GET /console/auth/methods); a service without it has tokens only.
 * @returns {Promise<{ oidc: boolean, session: boolean }>}
 */
export async function signInMethods() {
  try {
    const res = await fetch(new URL('auth/methods', import.meta.url), {
      cache: 'no-store',
      credentials: 'same-origin',
    });
    if (!res.ok) return { oidc: false, session: false };
    /** @type {{ oidc?: unknown, session?: unknown }} */
    const m = /** @type {unknown} */ (await res.json()) ?? {};
    return { oidc: m.oidc === true, session: m.session === true };
  } catch {
    return { oidc: false, session: false };
  }
}

/**
 * Ends the console session here and, when the provider has one, sends the browser to its
 * end-session page. @returns {Promise<void>}
 */
export async function signOutSession() {
  const res = await fetch(new URL('auth/logout', import.meta.url), {
    method: 'POST',
    headers: { 'x-ops-console': '1', accept: 'application/json' },
    credentials: 'same-origin',
    cache: 'no-store',
  });
  /** @type {{ endSession?: unknown }} */
  const body = res.ok ? (/** @type {unknown} */ (await res.json()) ?? {}) : {};
  if (typeof body.endSession === 'string') location.assign(body.endSession);
}

/** A path segment, encoded. @param {string} s */
export const seg = (s) => encodeURIComponent(s);

/** A query string from the non-empty values. @param {Record<string, string | number | undefined | null>} q */
export function qs(q) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** "GET /ops/a/{x}/b" -> "GET /ops/a/{}/b": route names compare whatever their parameters are called. @param {string} r */
const routeKey = (r) => r.replace(/\{[^}]+\}/g, '{}');

/**
 * Which routes this service has, from its OpenAPI document (GET /ops/openapi.json). A service
 * without the document has today's routes only; views of the others say they are not available.
 */
export class Capabilities {
  /** @param {Iterable<string>} routes "METHOD /ops/path/{param}" */
  constructor(routes) {
    this.routes = new Set([...routes].map(routeKey));
  }

  /** @param {string} route e.g. "GET /ops/payouts/{accountId}/{transferId}/timeline" */
  has(route) {
    return this.routes.has(routeKey(route));
  }
}

/** @returns {Promise<Capabilities>} */
export async function capabilities() {
  const found = [
    'GET /ops/payouts/{accountId}/{transferId}',
    'GET /ops/batches/{accountId}/{batchTransferId}',
    'GET /ops/requires-attention',
    'POST /ops/payouts/{accountId}/{transferId}/recheck',
    'POST /ops/outbox/{eventId}/replay',
    'GET /ops/dead-letters',
    'GET /ops/outbox/dead',
  ];
  try {
    /** @type {{ paths?: Record<string, Record<string, unknown>> }} */
    const doc = await call('GET', 'openapi.json');
    for (const [path, ops] of Object.entries(doc.paths ?? {}))
      for (const m of Object.keys(ops)) found.push(`${m.toUpperCase()} ${path}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) throw e;
  }
  return new Capabilities(found);
}

/**
 * Who is signed in and what they may do (GET /ops/me). A service without operator identities has
 * one shared token: everyone may do everything the API offers.
 * @param {Capabilities} caps
 * @returns {Promise<import('./view-types.js').Me>}
 */
export async function whoAmI(caps) {
  if (!caps.has('GET /ops/me'))
    return {
      id: null,
      name: null,
      role: null,
      may: new Set(['read', 'recheck', 'replay', 'propose', 'acknowledge', 'beneficiary', 'decide']),
    };
  /** @type {{ id: string, name?: string, role: string, may: string[] }} */
  const me = await call('GET', 'me');
  return { id: me.id, name: me.name ?? me.id, role: me.role, may: new Set(me.may) };
}
