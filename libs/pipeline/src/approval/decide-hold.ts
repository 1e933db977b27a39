import { type CaughtRule, fromPaise } from '#ledger';
import { type ApprovalPolicy, type ApproverRole } from './approval-policy.js';

/** A recent create or remove of a beneficiary the payout names. */
export interface BeneficiaryChangeFact {
  readonly beneId: string;
  /** The person who made it; null: a Kafka request (no person). */
  readonly operatorId: string | null;
  readonly ageMs: number;
}

/**
 * What the gate knows about one new payout or batch when it asks the policy: nothing more is read
 * than the account's rules need (the gate asks only for those).
 */
export interface HoldFacts {
  /** The payout's amount; for a batch, its largest entry (amount_at_least applies to each entry). */
  readonly amount: bigint;
  /** A batch's total; undefined for a single payout. */
  readonly batchTotal?: bigint;
  /** The registered beneficiaries it pays (beneId), possibly none (inline bank details). */
  readonly beneIds: readonly string[];
  /** Of those, the ones with no earlier payout on the account (first_payout_to_beneficiary). */
  readonly firstTo?: ReadonlySet<string>;
  /** Their recent changes (beneficiary_changed_within). */
  readonly changes?: readonly BeneficiaryChangeFact[];
  /** The account's sum of the day, this one included (daily_sum_above, scope account). */
  readonly accountDaily?: bigint;
  /** Each beneficiary's sum of the day, this one included (daily_sum_above, scope beneficiary). */
  readonly beneDaily?: ReadonlyMap<string, bigint>;
}

export interface HoldDecision {
  readonly rules: readonly CaughtRule[];
  /** The most any caught rule asks for. */
  readonly approvalsNeeded: number;
  /** The highest role any caught rule asks for. */
  readonly role: ApproverRole;
  /** People who may not approve it: whoever changed a beneficiary it pays within a caught rule's period. */
  readonly excluded: readonly string[];
}

const ROLE_RANK: Readonly<Record<ApproverRole, number>> = { operator: 0, approver: 1 };

/**
 * Whether the account's policy holds this payout or batch for approval, and on which rules.
 * Pure: every fact is read by the caller. Undefined: it goes on as any payout.
 */
export function decideHold(policy: ApprovalPolicy, f: HoldFacts): HoldDecision | undefined {
  const caught: Array<{ rule: CaughtRule; approvers: number; role: ApproverRole }> = [];
  const excluded = new Set<string>();
  for (const r of policy.rules) {
    let detail: string | undefined;
    switch (r.rule) {
      case 'amount_at_least':
        if (f.amount >= r.amount)
          detail = `${f.batchTotal === undefined ? 'amount' : 'an entry'} ${fromPaise(f.amount)} >= ${fromPaise(r.amount)}`;
        break;
      case 'batch_total_at_least':
        if (f.batchTotal !== undefined && f.batchTotal >= r.amount)
          detail = `batch total ${fromPaise(f.batchTotal)} >= ${fromPaise(r.amount)}`;
        break;
      case 'first_payout_to_beneficiary': {
        const first = f.beneIds.filter((b) => f.firstTo?.has(b));
        if (first.length > 0) detail = `no earlier payout to ${first.join(', ')}`;
        break;
      }
      case 'beneficiary_changed_within': {
        const recent = (f.changes ?? []).filter((c) => c.ageMs < r.withinMs && f.beneIds.includes(c.beneId));
        if (recent.length > 0) {
          detail = `${[...new Set(recent.map((c) => c.beneId))].join(', ')} created or removed within ${r.withinMs / 3_600_000}h`;
          for (const c of recent) if (c.operatorId !== null) excluded.add(c.operatorId);
        }
        break;
      }
      case 'daily_sum_above':
        if (r.scope === 'account') {
          if (f.accountDaily !== undefined && f.accountDaily > r.cap)
            detail = `account's sum today ${fromPaise(f.accountDaily)} > ${fromPaise(r.cap)}`;
        } else {
          const over = [...(f.beneDaily ?? new Map<string, bigint>())].filter(([, s]) => s > r.cap);
          if (over.length > 0)
            detail = over
              .map(([b, s]) => `${b}'s sum today ${fromPaise(s)} > ${fromPaise(r.cap)}`)
              .join('; ');
        }
        break;
    }
    if (detail !== undefined)
      caught.push({ rule: { rule: r.rule, detail }, approvers: r.approvers, role: r.role });
  }
  if (caught.length === 0) return undefined;
  return {
    rules: caught.map((c) => c.rule),
    approvalsNeeded: Math.max(...caught.map((c) => c.approvers)),
    role: caught.reduce<ApproverRole>((a, c) => (ROLE_RANK[c.role] > ROLE_RANK[a] ? c.role : a), 'operator'),
    excluded: [...excluded].sort(),
  };
}
