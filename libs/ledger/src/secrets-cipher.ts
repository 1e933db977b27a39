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

/** AES-256: every key, current or previous, is 32 bytes. */
export const KEY_BYTES = 32;
/** The full GCM tag. Pinned on both sides: unpinned, a decipher accepts tags of 4 to 16 bytes. */
const TAG_BYTES = 16;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Why a base64 key is not usable, or undefined if it is. Strict base64: Buffer.from skips
 * characters outside the alphabet, so a key with a stray character would decode to other bytes.
 * The message never contains the key.
 */
export function keyProblem(keyB64: string): string | undefined {
  if (!BASE64.test(keyB64)) return `must be ${KEY_BYTES} bytes, base64-encoded (it is not base64)`;
  const bytes = Buffer.from(keyB64, 'base64').length;
  return bytes === KEY_BYTES ? undefined : `must be ${KEY_BYTES} bytes, base64-encoded (it has ${bytes})`;
}

/**
 * LEDGER_PREVIOUS_KEYS (`<keyId>:<base64 key>,...`) as key id -> key, or the problems with it,
 * each naming the entry by its key id (never the key), so the boot fails before the first old row
 * or retried command needs a key that cannot work.
 */
export function parsePreviousKeys(spec: string): { keys: Map<string, Buffer>; problems: readonly string[] } {
  const keys = new Map<string, Buffer>();
  const problems: string[] = [];
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  entries.forEach((part, n) => {
    const i = part.indexOf(':');
    if (i <= 0) {
      problems.push(`entry ${n + 1} must be <keyId>:<base64 key>`);
      return;
    }
    const kid = part.slice(0, i);
    const problem = keyProblem(part.slice(i + 1).trim());
    if (problem) problems.push(`key ${kid} ${problem}`);
    else if (keys.has(kid)) problems.push(`key id ${kid} is listed more than once`);
    else keys.set(kid, Buffer.from(part.slice(i + 1).trim(), 'base64'));
  });
  return { keys, problems };
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
    if (currentKey.length !== KEY_BYTES) throw new Error(`encryption key must be ${KEY_BYTES} bytes`);
    for (const [kid, key] of previous) {
      if (key.length !== KEY_BYTES) throw new Error(`previous key ${kid} must be ${KEY_BYTES} bytes`);
      // The current key would shadow it: rows sealed with the old key of that id could not open.
      if (kid === currentKid) throw new Error(`previous key id ${kid} is the current key's id`);
    }
    const raw = new Map([...previous, [currentKid, currentKey]]);
    this.keys = new Map([...raw].map(([kid, key]) => [kid, createSecretKey(key)]));
    this.hashKeys = new Map([...raw].map(([kid, key]) => [kid, hashKeyOf(key)]));
  }

  static fromConfig(kid: string, keyB64: string, previousSpec: string): SecretsCipher {
    const current = keyProblem(keyB64);
    if (current) throw new Error(`LEDGER_ENCRYPTION_KEY ${current}`);
    const { keys, problems } = parsePreviousKeys(previousSpec);
    if (problems.length > 0) throw new Error(`LEDGER_PREVIOUS_KEYS: ${problems.join('; ')}`);
    if (keys.has(kid)) throw new Error(`LEDGER_PREVIOUS_KEYS: key id ${kid} is LEDGER_ENCRYPTION_KEY_ID`);
    return new SecretsCipher(kid, Buffer.from(keyB64, 'base64'), keys);
  }

  seal(plaintext: string): SealedSecret {
    const key = this.keys.get(this.currentKid) as KeyObject;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
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
    const tag = Buffer.from(s.tag, 'base64');
    // A cut tag is a cheaper forgery (4 bytes: one in 2^32), never a stored value of ours.
    if (tag.length !== TAG_BYTES) throw new Error(`a stored secret's auth tag must be ${TAG_BYTES} bytes`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(s.iv, 'base64'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(tag);
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
