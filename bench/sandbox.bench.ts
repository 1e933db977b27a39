/**
 * Throughput of the provider sandbox's transfer endpoints, with no injected latency.
 * The sandbox runs in a worker thread (its own event loop, port 0); autocannon drives it from
 * the main thread with a unique transferId on every request.
 *
 *   npm run bench:sandbox            (BENCH_SECONDS=10 BENCH_CONNECTIONS=50 by default)
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import { startSandbox } from '#sandbox';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SUCCESS_ACCOUNT = { bankAccount: '026291800001191', ifsc: 'YESB0000262' };

async function runSandboxWorker(): Promise<void> {
  const sb = await startSandbox({
    port: 0,
    initialBalance: '9999999999999.00',
    rateLimits: { transfer: 0, status: 0, authorize: 0, other: 0 },
  });
  parentPort?.postMessage(sb.url);
}

async function json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  return (await res.json()) as Record<string, unknown>;
}

async function prepare(url: string): Promise<{ token: string; beneId: string }> {
  const creds = { 'x-client-id': 'sandbox_client_id', 'x-client-secret': 'sandbox_client_secret' };
  const auth = async (): Promise<string> => {
    const res = await json(`${url}/payout/v1/authorize`, { method: 'POST', headers: creds });
    return (res.data as { token: string }).token;
  };
  let token = await auth();
  const beneId = 'BENCHBENE1';
  await json(`${url}/payout/v1/addBeneficiary`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: JSON.stringify({
      beneId,
      name: 'Bench',
      email: 'b@example.com',
      phone: '9876543210',
      address1: 'A',
      ...SUCCESS_ACCOUNT,
    }),
  });
  await json(`${url}/__sandbox/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 31 * 60_000 }) });
  token = await auth();
  return { token, beneId };
}

async function measure(
  url: string,
  name: string,
  path: string,
  body: (id: string) => Record<string, unknown>,
  token: string,
) {
  let n = 0;
  const prefix = `${name.slice(0, 3)}${Date.now().toString(36)}`;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        setupRequest: (req) => {
          n += 1;
          return { ...req, body: JSON.stringify(body(`${prefix}_${n}`)) };
        },
      },
    ],
  });
  return {
    endpoint: name,
    reqPerSecAvg: Math.round(result.requests.average),
    total: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    latencyP50ms: result.latency.p50,
    latencyP99ms: result.latency.p99,
  };
}

async function main(): Promise<void> {
  const worker = new Worker(new URL(import.meta.url));
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (m: unknown) => resolve(String(m)));
    worker.once('error', reject);
  });
  const { token, beneId } = await prepare(url);
  const rows = [
    await measure(
      url,
      'requestTransfer',
      '/payout/v1.2/requestTransfer',
      (id) => ({ beneId, amount: '1.00', transferId: id }),
      token,
    ),
    await measure(
      url,
      'directTransfer',
      '/payout/v1.2/directTransfer',
      (id) => ({ transferId: id, amount: '1.00', beneDetails: { name: 'Bench', ...SUCCESS_ACCOUNT } }),
      token,
    ),
  ];
  console.log(`node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per endpoint`);
  console.table(rows);
  await worker.terminate();
}

if (isMainThread) await main();
else await runSandboxWorker();
