import {
  constants,
  generateKeyPair,
  privateDecrypt,
  publicEncrypt,
  createPublicKey,
  createPrivateKey,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/** The sandbox's RSA key pair for X-Svc-Signature. */
export interface SignatureKeys {
  readonly privateKey: KeyObject;
  readonly publicKeyPem: string;
}

export async function loadOrGenerateKeys(privateKeyPem: string | undefined): Promise<SignatureKeys> {
  if (privateKeyPem) {
    const privateKey = createPrivateKey(privateKeyPem);
    const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    return { privateKey, publicKeyPem };
  }
  const { privateKey, publicKey } = await generate('rsa', { modulusLength: 2048 });
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/**
 * Builds an X-Svc-Signature the way a client does: `<client_id>.<unix seconds>`, RSA-OAEP with
 * SHA-1 (Node's default OAEP hash), base64. Exported for tests and tools.
 */
export function signClientId(publicKeyPem: string, clientId: string, unixSeconds: number): string {
  return publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
    Buffer.from(`${clientId}.${unixSeconds}`),
  ).toString('base64');
}

/** True when the header decrypts to `<clientId>.<seconds>` within `windowSeconds` of `nowMs`. */
export function verifySignature(
  keys: SignatureKeys,
  header: string | string[] | undefined,
  clientId: string,
  nowMs: number,
  windowSeconds: number,
): boolean {
  if (typeof header !== 'string' || header.length === 0 || header.length > 2048) return false;
  let plain: string;
  try {
    plain = privateDecrypt(
      { key: keys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from(header, 'base64'),
    ).toString('utf8');
  } catch {
    return false;
  }
  const dot = plain.lastIndexOf('.');
  if (dot < 0 || plain.slice(0, dot) !== clientId) return false;
  const secs = plain.slice(dot + 1);
  if (!/^\d{1,12}$/.test(secs)) return false;
  return Math.abs(Number(secs) - Math.floor(nowMs / 1000)) <= windowSeconds;
}
