import { createHash } from 'node:crypto';
import { fromPaise, toPaise } from '#ledger';

/*
 * An account's approval policy (issue 30, ADR 0024): the rules that hold a payout or batch for
 * people's approval before anything is sent. Amounts are integer paise (bigint), never floats.
 */

/** Who may approve: an `operator` or an `approver` (an approver may do what an operator may). */
export type ApproverRole = 'operator' | 'approver';

interface RuleBase {
  /** Distinct people (not the payout's requester, not a token) who must approve: 1 or more. */
  readonly approvers: number;
  readonly role: ApproverRole;
}

export type ApprovalRule =
  | (RuleBase & { readonly rule: 'amount_at_least'; readonly amount: bigint })
  | (RuleBase & { readonly rule: 'batch_total_at_least'; readonly amount: bigint })
  | (RuleBase & { readonly rule: 'first_payout_to_beneficiary' })
  | (RuleBase & { readonly rule: 'beneficiary_changed_within'; readonly withinMs: number })
  | (RuleBase & {
      readonly rule: 'daily_sum_above';
      readonly scope: 'account' | 'beneficiary';
      readonly cap: bigint;
    });

export type RuleName = ApprovalRule['rule'];

export interface ApprovalPolicy {
  readonly accountId: string;
  readonly rules: readonly ApprovalRule[];
  /** How long a hold waits for its approvals before it ends REJECTED (approval_expired). */
  readonly expiryMs: number;
  /** A hash of the policy's canonical form: recorded with each hold. */
  readonly version: string;
}

/** The canonical form of a policy (rules in order, amounts as exact decimals, periods in ms). */
export function canonicalPolicy(p: Omit<ApprovalPolicy, 'version'>): string {
  const rules = p.rules.map((r) => {
    const base = { rule: r.rule, approvers: r.approvers, role: r.role };
    switch (r.rule) {
      case 'amount_at_least':
      case 'batch_total_at_least':
        return { ...base, amount: fromPaise(r.amount) };
      case 'first_payout_to_beneficiary':
        return base;
      case 'beneficiary_changed_within':
        return { ...base, withinMs: r.withinMs };
      case 'daily_sum_above':
        return { ...base, scope: r.scope, cap: fromPaise(r.cap) };
    }
  });
  return JSON.stringify({ accountId: p.accountId, expiryMs: p.expiryMs, rules });
}

/** `sha256:` and the first 16 hex digits of the SHA-256 of the canonical form. */
export function policyVersion(p: Omit<ApprovalPolicy, 'version'>): string {
  return `sha256:${createHash('sha256').update(canonicalPolicy(p)).digest('hex').slice(0, 16)}`;
}

/** Builds a policy with its version. */
export function approvalPolicy(p: Omit<ApprovalPolicy, 'version'>): ApprovalPolicy {
  return { ...p, version: policyVersion(p) };
}

/** A decimal amount of at most 2 decimals as paise; throws on anything else. */
export function paiseOf(amount: string): bigint {
  return toPaise(amount);
}

/** The policies by account; an account without one is absent. */
export type ApprovalPolicies = ReadonlyMap<string, ApprovalPolicy>;
