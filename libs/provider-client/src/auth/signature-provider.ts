import { constants, publicEncrypt } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Produces the `X-Svc-Signature` value; a port so tests and key rotation can swap it. */
export interface SignatureProvider {
  sign(clientId: string): string;
}

/**
 * RSA-OAEP (SHA-1, MGF1-SHA-1) over `<client_id>.<unix_seconds>`, base64. Made fresh on every
 * authorize: the provider does not publish how long one stays valid, so caching one is a guess.
 */
export class RsaSignatureProvider implements SignatureProvider {
  constructor(
    private readonly publicKeyPem: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  sign(clientId: string): string {
    const plaintext = Buffer.from(`${clientId}.${this.nowSeconds()}`, 'utf8');
    return publicEncrypt(
      { key: this.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      plaintext,
    ).toString('base64');
  }
}

/** Reads the key from a PEM string (env values often carry `\n` escapes) or from a file path. */
export function loadPublicKey(source: { readonly pem?: string; readonly file?: string }): string | undefined {
  if (source.pem) return source.pem.replace(/\\n/g, '\n');
  if (source.file) return readFileSync(source.file, 'utf8');
  return undefined;
}
