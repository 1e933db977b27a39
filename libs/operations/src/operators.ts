import { createHash, timingSafeEqual } from 'node:crypto';

/** viewer < operator < approver: each role may do what the ones before it may. */
export const OPERATOR_ROLES = ['viewer', 'operator', 'approver'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface OperatorIdentity {
  readonly id: string;
  readonly role: OperatorRole;
  /** SHA-256 of the operator's bearer token, hex. The token itself is never configured or kept. */
  readonly tokenSha256: string;
}

/** Who is asking: what the history records. */
export interface Operator {
  readonly id: string;
  readonly role: OperatorRole;
}

/**
 * What each operations API action needs. Reads (lookups, search, export, timelines, proposals)
 * are the viewer's; actions on a payout, the outbox or a beneficiary (recheck, replay, propose,
 * beneficiary) the operator's;
 * deciding a proposal the approver's, and never on one's own proposal (checked by the use case).
 */
export const ACTION_ROLE = {
  read: 'viewer',
  recheck: 'operator',
  replay: 'operator',
  propose: 'operator',
  /** A contradiction seen (ADR 0018): it leaves the queue; the money is settled outside. */
  acknowledge: 'operator',
  /** Register or remove a beneficiary at the provider (audited); reading one is `read`. */
  beneficiary: 'operator',
  decide: 'approver',
  /**
   * Approve or reject a payout held by the approval policy (issue 30): the hold names the role it
   * needs (operator or approver), checked by the use case; a token never decides.
   */
  approve_payout: 'operator',
  /** Issue, list and revoke automation tokens (the secret shown once, stored hashed). */
  tokens: 'approver',
} as const satisfies Record<string, OperatorRole>;

export type OperatorAction = keyof typeof ACTION_ROLE;

export function roleAllows(role: OperatorRole, action: OperatorAction): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(ACTION_ROLE[action]);
}

export function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The configured operators, found by the hash of the token they present. Every configured hash
 * is compared (constant time each), so the answer takes as long whoever matches, or nobody.
 */
export class OperatorDirectory {
  private readonly hashes: ReadonlyArray<{ op: Operator; hash: Buffer }>;

  constructor(identities: readonly OperatorIdentity[]) {
    this.hashes = identities.map((i) => ({
      op: { id: i.id, role: i.role },
      hash: Buffer.from(i.tokenSha256, 'hex'),
    }));
  }

  get enabled(): boolean {
    return this.hashes.length > 0;
  }

  get size(): number {
    return this.hashes.length;
  }

  authenticate(token: string): Operator | undefined {
    const presented = createHash('sha256').update(token, 'utf8').digest();
    let found: Operator | undefined;
    for (const { op, hash } of this.hashes) if (timingSafeEqual(presented, hash)) found = op;
    return found;
  }

  /** As `authenticate`, in the sign-in gate's terms. */
  check(token: string): { ok: true; operator: Operator } | { ok: false; reason: 'unknown_token' } {
    const operator = this.authenticate(token);
    return operator ? { ok: true, operator } : { ok: false, reason: 'unknown_token' };
  }
}
