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

/**
 * How an operator reached the API: a configured token (OPS_OPERATORS), a console session (OpenID
 * Connect), or an automation token (issued at run time, named).
 */
export type Via =
  | { readonly kind: 'configured' }
  | { readonly kind: 'session' }
  | { readonly kind: 'token'; readonly tokenId: string; readonly tokenName: string };

/**
 * Who is asking: what the history records. `id` is the human answerable for the action, stable
 * for that person: a configured operator's id; for a console session the identity provider's
 * issuer and subject (`oidc:<iss>#<sub>`, never the mutable username); for an automation token
 * the human who issued it. Four eyes compares these ids. `name` is for display only (a
 * configured id, the provider's preferred_username or name, a token issuer's name then).
 */
export interface Operator {
  readonly id: string;
  readonly name: string;
  readonly role: OperatorRole;
  readonly via: Via;
}

/** The human id of a person signed in with an identity provider: its issuer and its subject. */
export function oidcHumanId(issuer: string, subject: string): string {
  return `oidc:${issuer}#${subject}`;
}

/** How the history names the way in: `configured`, `session` or `token:<name>`. */
export function viaLabel(v: Via): string {
  return v.kind === 'token' ? `token:${v.tokenName}` : v.kind;
}

/**
 * What each operations API action needs. Reads (lookups, search, export, timelines, proposals)
 * are the viewer's; actions on a payout, the outbox or a beneficiary (recheck, replay, propose,
 * acknowledge, propose a beneficiary change) the operator's; deciding a proposal (and confirming
 * an acknowledgement) the approver's, and never on one's own (checked by the use case).
 */
export const ACTION_ROLE = {
  read: 'viewer',
  recheck: 'operator',
  replay: 'operator',
  propose: 'operator',
  /** A contradiction seen, first person (ADR 0018); a second person confirms it (`decide`). */
  acknowledge: 'operator',
  /** Propose registering or removing a beneficiary (a second person approves); reading one is `read`. */
  beneficiary: 'operator',
  decide: 'approver',
  /**
   * Approve or reject a payout held by the approval policy (issue 30): the hold names the role it
   * needs (operator or approver), checked by the use case; a token never decides.
   */
  approve_payout: 'operator',
  /**
   * Cancel a payout held for funds (issue 32): it was never sent, so it ends REJECTED and nothing
   * moves; one person may (a token too: it is a program acting for its issuer).
   */
  cancel_held: 'operator',
  /** Issue, list and revoke automation tokens (the secret shown once, stored hashed). */
  tokens: 'approver',
} as const satisfies Record<string, OperatorRole>;

export type OperatorAction = keyof typeof ACTION_ROLE;

/**
 * What no automation token may do, whatever role it carries: decide (approve, reject, confirm),
 * and issue or revoke tokens. A token is a program acting for its issuer; the second pair of
 * eyes, and the minting of more credentials, stay with a person signed in as themselves.
 */
// A held payout's approval (`approve_payout`) is refused to tokens by its use case, which records
// the attempt in the operator actions.
export const NOT_BY_TOKEN: ReadonlySet<OperatorAction> = new Set<OperatorAction>(['decide', 'tokens']);

export function roleAllows(role: OperatorRole, action: OperatorAction): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(ACTION_ROLE[action]);
}

/** Whether this operator may: the role allows it, and a token only what a token may do. */
export function mayDo(who: Pick<Operator, 'role' | 'via'>, action: OperatorAction): boolean {
  return roleAllows(who.role, action) && !(who.via.kind === 'token' && NOT_BY_TOKEN.has(action));
}

/** Why `mayDo` said no, for a refusal's message. */
export function refusalOf(who: Operator, action: OperatorAction): string {
  const what = action === 'decide' ? 'approve, reject or confirm' : action;
  return who.via.kind === 'token' && NOT_BY_TOKEN.has(action)
    ? `an automation token (${who.via.tokenName}) may not ${what}: a person signs in as themselves for that`
    : `operator ${who.name} (${who.role}) may not ${what}: it needs ${ACTION_ROLE[action]}`;
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
      op: { id: i.id, name: i.id, role: i.role, via: { kind: 'configured' } },
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
