import { LEGACY_ENDPOINTS, V2_ENDPOINTS } from '../handlers/registry.js';

const CONTROL: readonly [string, string, string][] = [
  ['get', '/__sandbox/public-key', 'PEM public key for X-Svc-Signature'],
  ['get', '/__sandbox/openapi.json', 'This document'],
  ['get', '/__sandbox/clock', 'Read the sandbox clock'],
  ['post', '/__sandbox/clock/advance', 'Advance the sandbox clock {ms?, seconds?}'],
  [
    'post',
    '/__sandbox/reset',
    'Forget all state, tokens, faults and rate windows (of every merchant, or of ?clientId=)',
  ],
  ['get', '/__sandbox/balance', 'Read the balance: {balance (available), availableBalance, ledgerBalance}'],
  ['post', '/__sandbox/balance', 'Set the (available) balance {balance: "1000.00"}'],
  ['post', '/__sandbox/fund', 'Add to the balance {amount: "1000.00"}; queued transfers it can fund go'],
  ['get', '/__sandbox/queue', 'The transfers held QUEUED for balance'],
  [
    'get',
    '/__sandbox/balance/refusals',
    'Payouts the balance check refused (insufficient balance; never a fault), of every merchant or of ?clientId=',
  ],
  ['get', '/__sandbox/fees', 'The service charge per payout and the tax on it'],
  ['post', '/__sandbox/fees', 'Set the service charge per payout {transferCharge: "3.00"} (18 % GST added)'],
  ['get', '/__sandbox/flags', 'Read the account flags'],
  ['post', '/__sandbox/flags', 'Set account flags (partial)'],
  ['get', '/__sandbox/faults', 'List injected faults'],
  ['post', '/__sandbox/faults', 'Inject a fault on an endpoint'],
  ['delete', '/__sandbox/faults', 'Remove faults (?endpoint=)'],
  ['get', '/__sandbox/received', 'Initiations received (?transferId=), with accepted flags'],
  ['get', '/__sandbox/received/summary', 'Initiation totals and every (account, id) accepted more than once'],
  ['get', '/__sandbox/transfers', 'Every transfer and its status now (batch entries included)'],
  [
    'get',
    '/__sandbox/outcomes',
    'Per id (?transferId=): initiations, accepted, when, status, statuses reached, paid, returned, failed; requests held by applyLaterMs',
  ],
  ['get', '/__sandbox/fault-mode', 'Random fault mode: settings and faults injected so far'],
  ['post', '/__sandbox/fault-mode', 'Random fault mode: a seeded share of initiations get a fault'],
  ['delete', '/__sandbox/fault-mode', 'End random fault mode'],
  ['post', '/__sandbox/transfer-tokens', 'Issue a v2 transfer token {transfer_id, vpa}'],
  ['post', '/__sandbox/rate-limits', 'Override the per-minute limit of an endpoint'],
  ['get', '/__sandbox/allowed-ips', 'Read the source allow-list'],
  ['post', '/__sandbox/allowed-ips', 'Replace the source allow-list {ips: []}'],
  ['post', '/__sandbox/timing', 'Change pending/hang/batch delays and token lifetime'],
  ['get', '/__sandbox/webhooks', 'Webhook endpoint, faults, disabled flag, consecutive failures, counts'],
  [
    'post',
    '/__sandbox/webhooks',
    'Change the webhook endpoint {url?, version?, faults?, lowBalanceThreshold?}',
  ],
  ['post', '/__sandbox/webhooks/enable', 'Re-enable a disabled webhook endpoint (resets the failure count)'],
  ['get', '/__sandbox/webhooks/deliveries', 'Every webhook attempt (?transferId=)'],
  [
    'post',
    '/__sandbox/webhooks/incident',
    'Send a BENEFICIARY_INCIDENT webhook (v1) {beneficiaryId?, reason}',
  ],
  ['get', '/__sandbox/webhooks/hostile', 'Hostile webhook sender: running, target, counts by variant'],
  [
    'post',
    '/__sandbox/webhooks/hostile',
    'Start replaying captured webhooks (v1 verbatim and re-aimed, v2 stale and badly signed) {url?, v1Url?, v2Url?, perSecond?, variants?, total?, seed?}',
  ],
  ['delete', '/__sandbox/webhooks/hostile', 'Stop the hostile webhook sender (counts stay)'],
];

/** Control routes that act on the sandbox as a whole: no merchant. */
const SANDBOX_WIDE = new Set([
  '/__sandbox/public-key',
  '/__sandbox/openapi.json',
  '/__sandbox/clock',
  '/__sandbox/clock/advance',
  '/__sandbox/timing',
]);
/** Reports and reset: every merchant unless `clientId` names one. */
const EVERY_MERCHANT = new Set([
  '/__sandbox/reset',
  '/__sandbox/received',
  '/__sandbox/received/summary',
  '/__sandbox/transfers',
  '/__sandbox/outcomes',
]);

function merchantParameter(path: string): Record<string, unknown>[] {
  if (SANDBOX_WIDE.has(path)) return [];
  return [
    {
      name: 'clientId',
      in: 'query',
      required: false,
      description: EVERY_MERCHANT.has(path)
        ? 'Only this merchant (its client id); absent: every merchant. 404 for an unknown one.'
        : 'The merchant (its client id) the call is for; absent: the first (SANDBOX_CLIENT_ID). 404 for an unknown one.',
      schema: { type: 'string' },
    },
  ];
}

const legacyEnvelope = {
  type: 'object',
  required: ['status', 'message'],
  properties: {
    status: { type: 'string', enum: ['SUCCESS', 'PENDING', 'ERROR'] },
    subCode: { type: 'string' },
    message: { type: 'string' },
    data: { type: 'object' },
  },
};

const v2Error = {
  type: 'object',
  required: ['type', 'code', 'message'],
  properties: { type: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
};

function inputs(method: string, fields: readonly string[] | undefined): Record<string, unknown> {
  if (!fields || fields.length === 0) return {};
  if (method === 'GET') {
    return {
      parameters: fields.map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
    };
  }
  const properties = Object.fromEntries(fields.map((f) => [f, {}]));
  return {
    requestBody: {
      content: {
        'application/json': { schema: { type: 'object', additionalProperties: false, properties } },
      },
    },
  };
}

/** OpenAPI 3.1 description of the sandbox, generated from the endpoint registry. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (method: string, path: string, op: Record<string, unknown>): void => {
    const oaPath = path.replace(/:(\w+)/g, '{$1}');
    paths[oaPath] = { ...(paths[oaPath] ?? {}), [method]: op };
  };
  for (const ep of LEGACY_ENDPOINTS) {
    for (const path of ep.paths) {
      add(ep.method.toLowerCase(), path, {
        operationId: path === ep.paths[0] ? ep.id : `${ep.id}_${path.includes('v1.2') ? 'v12' : 'alt'}`,
        summary: ep.summary,
        security: ep.auth === 'bearer' ? [{ bearer: [] }] : [{ clientId: [], clientSecret: [] }],
        ...inputs(ep.method, ep.fields),
        ...(path.includes(':')
          ? { parameters: [{ name: 'beneId', in: 'path', required: true, schema: { type: 'string' } }] }
          : {}),
        responses: {
          default: {
            description: `Legacy envelope; answers: ${Object.values(ep.table)
              .map((r) => `${r.subCode} ${r.message}`)
              .join(' | ')}`,
            content: { 'application/json': { schema: legacyEnvelope } },
          },
        },
      });
    }
  }
  // Endpoints sharing a route (the transfer-token payout and the standard transfer) are one
  // operation taking either body.
  const shared = new Map<string, { ids: string[]; summaries: string[]; bodies: unknown[] }>();
  for (const ep of V2_ENDPOINTS) {
    for (const path of ep.paths) {
      const s = shared.get(`${ep.method} ${path}`) ?? { ids: [], summaries: [], bodies: [] };
      shared.set(`${ep.method} ${path}`, s);
      s.ids.push(ep.id);
      s.summaries.push(ep.summary);
      const body = ep.method === 'POST' ? inputs(ep.method, ep.fields).requestBody : undefined;
      if (body)
        s.bodies.push(
          (body as { content: { 'application/json': { schema: unknown } } }).content['application/json']
            .schema,
        );
      const requestBody =
        s.bodies.length === 0
          ? {}
          : {
              requestBody: {
                content: {
                  'application/json': { schema: s.bodies.length === 1 ? s.bodies[0] : { oneOf: s.bodies } },
                },
              },
            };
      add(ep.method.toLowerCase(), path, {
        operationId: s.ids.join('_or_'),
        summary: s.summaries.join(', or '),
        security: [{ clientId: [], clientSecret: [] }],
        ...requestBody,
        parameters: [
          ...(ep.method !== 'POST'
            ? (ep.fields ?? []).map((name) => ({ name, in: 'query', schema: { type: 'string' } }))
            : []),
          {
            name: 'x-api-version',
            in: 'header',
            required: true,
            schema: { type: 'string', example: '2024-01-01' },
          },
        ],
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } },
          default: { description: 'Error', content: { 'application/json': { schema: v2Error } } },
        },
      });
    }
  }
  for (const [method, path, summary] of CONTROL) {
    add(method, path, {
      operationId: `sandbox_${method}_${path.slice(11).replace(/\W/g, '_')}`,
      summary,
      tags: ['sandbox control'],
      parameters: merchantParameter(path),
      responses: { '200': { description: 'OK' } },
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Provider sandbox',
      version: '1.0.0',
      description: 'Local stand-in for the payout provider; see docs/SANDBOX.md.',
    },
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        clientId: { type: 'apiKey', in: 'header', name: 'x-client-id' },
        clientSecret: { type: 'apiKey', in: 'header', name: 'x-client-secret' },
      },
    },
  };
}
