import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** An encrypted value as stored in JSONB: key id, IV, auth tag and ciphertext (base64). */
export interface SealedSecret {
  kid: string;
  iv: string;
  tag: string;
  ct: string;
}

/** The request-hash key of an encryption key: derived, so the cipher key itself is never used twice. */
function hashKeyOf(key: Buffer): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'payouts request hash', 32)));
}

/**
 * AES-256-GCM for the secrets a payout needs until it is terminal (transfer token, card token,
 * cryptogram). Each value has its own random IV; the key id is stored with it, so old rows stay
 * readable after the key rotates (previous keys are kept for decryption only).
 *
 * Request hashes carry their key id too (`<kid>:<hex>`) and are checked with that key, so a
 * command retried after a rotation is still the same request, as long as the old key is kept in
 * LEDGER_PREVIOUS_KEYS.
 */
export class SecretsCipher {
  // KeyObjects, made once: given a Buffer, node makes one per call (an HMAC took ~5x, an AES-GCM
  // seal ~2x the time; docs/BENCHMARKS.md).
  private readonly keys: ReadonlyMap<string, KeyObject>;
  private readonly hashKeys: ReadonlyMap<string, KeyObject>;

  constructor(
    private readonly currentKid: string,
    currentKey: Buffer,
    previous: ReadonlyMap<string, Buffer> = new Map(),
  ) {
    if (currentKey.length !== 32) throw new Error('encryption key must be 32 bytes');
    const raw = new Map([...previous, [currentKid, currentKey]]);
    this.keys = new Map([...raw].map(([kid, key]) => [kid, createSecretKey(key)]));
    this.hashKeys = new Map([...raw].map(([kid, key]) => [kid, hashKeyOf(key)]));
  }

  static fromConfig(kid: string, keyB64: string, previousSpec: string): SecretsCipher {
    const previous = new Map<string, Buffer>();
    for (const part of previousSpec
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const i = part.indexOf(':');
      if (i <= 0) throw new Error('LEDGER_PREVIOUS_KEYS entries must be <keyId>:<base64 key>');
      previous.set(part.slice(0, i), Buffer.from(part.slice(i + 1), 'base64'));
    }
    return new SecretsCipher(kid, Buffer.from(keyB64, 'base64'), previous);
  }

  seal(plaintext: string): SealedSecret {
    const key = this.keys.get(this.currentKid) as KeyObject;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      kid: this.currentKid,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ct: ct.toString('base64'),
    };
  }

  open(s: SealedSecret): string {
    const key = this.keys.get(s.kid);
    if (!key) throw new Error(`no key with id ${s.kid} to decrypt a stored secret`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(s.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(s.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(s.ct, 'base64')), decipher.final()]).toString('utf8');
  }

  /**
   * Keyed hash, so a stored request hash reveals nothing about low-entropy secrets in it:
   * `<current key id>:<hex>`.
   */
  hash(canonical: string): string {
    return `${this.currentKid}:${hmac(this.hashKeys.get(this.currentKid) as KeyObject, canonical)}`;
  }

  /**
   * Whether a stored hash is of this canonical request, checked with the key it was made with. A
   * hash without a key id (written before ids were stored) is tried with every key. A hash whose
   * key is gone cannot be checked: false, and the first request stands (a conflict, never a second
   * payout).
   */
  sameRequest(stored: string, canonical: string): boolean {
    const i = stored.indexOf(':');
    const candidates =
      i < 0
        ? [...this.hashKeys.values()]
        : [this.hashKeys.get(stored.slice(0, i))].filter((k) => k !== undefined);
    const digest = Buffer.from(i < 0 ? stored : stored.slice(i + 1), 'hex');
    return candidates.some((k) => {
      const mine = Buffer.from(hmac(k, canonical), 'hex');
      return mine.length === digest.length && timingSafeEqual(mine, digest);
    });
  }
}

function hmac(key: KeyObject, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}
