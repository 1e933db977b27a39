/**
 * Why SecretsCipher holds KeyObjects: the cost of one request hash (HMAC-SHA256) and one seal
 * (AES-256-GCM) of a ~170-byte text with a raw Buffer key (node makes a KeyObject per call) and
 * with a KeyObject made once. `node dist/bench/crypto-keys.bench.js` (µs per call, best of 5).
 */
import { createCipheriv, createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

const raw = randomBytes(32);
const key = createSecretKey(raw);
const text = JSON.stringify({ beneficiary: 'x'.repeat(120), amount: '12345.67', transferId: 'bench_1' });

function perCallUs(fn: () => void, n = 100_000): number {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    best = Math.min(best, ((performance.now() - t0) * 1000) / n);
  }
  return best;
}

const hmac = (k: Buffer | KeyObject) => () => createHmac('sha256', k).update(text).digest('hex');
const seal = (k: Buffer | KeyObject) => () => {
  const c = createCipheriv('aes-256-gcm', k, randomBytes(12));
  Buffer.concat([c.update(text, 'utf8'), c.final()]);
  c.getAuthTag();
};

for (const [name, buffer, object] of [
  ['HMAC-SHA256 (request hash)', hmac(raw), hmac(key)],
  ['AES-256-GCM seal', seal(raw), seal(key)],
] as const) {
  const a = perCallUs(buffer);
  const b = perCallUs(object);
  console.log(
    `${name}: Buffer key ${a.toFixed(2)} µs, KeyObject ${b.toFixed(2)} µs (${(a / b).toFixed(1)}x)`,
  );
}
