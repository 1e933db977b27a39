import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** An encrypted value as stored in JSONB: key id, IV, auth tag and ciphertext (base64). */
export interface SealedSecret {
  kid: string;
  iv: string;
  tag: string;
  ct: string;
}

/**
 * AES-256-GCM for the secrets a payout needs until it is terminal (transfer token, card token,
 * cryptogram). Each value has its own random IV; the key id is stored with it, so old rows stay
 * readable after the key rotates (previous keys are kept for decryption only).
 */
export class SecretsCipher {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly hashKey: Buffer;

  constructor(
    private readonly currentKid: string,
    currentKey: Buffer,
    previous: ReadonlyMap<string, Buffer> = new Map(),
  ) {
    if (currentKey.length !== 32) throw new Error('encryption key must be 32 bytes');
    this.keys = new Map([...previous, [currentKid, currentKey]]);
    // A separate key for request hashes, derived so the cipher key itself is never used twice.
    this.hashKey = Buffer.from(hkdfSync('sha256', currentKey, Buffer.alloc(0), 'payouts request hash', 32));
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
    const key = this.keys.get(this.currentKid) as Buffer;
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

  /** Keyed hash, so a stored request hash reveals nothing about low-entropy secrets in it. */
  hash(canonical: string): string {
    return createHmac('sha256', this.hashKey).update(canonical).digest('hex');
  }
}
