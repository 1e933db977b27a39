import { z } from 'zod';
import { env, envVar } from '#config';
import { toPaise } from '#ledger';
import { parseSchedule } from '../shared/check-schedule.js';
import { type ApprovalPolicies, type ApprovalRule, approvalPolicy } from './approval-policy.js';

/*
 * The approval policy's settings (issue 30), part of the pipeline section (pipeline.config.ts
 * spreads them in). The choices: docs/OPERATIONS.md, "Approval before sending"; ADR 0024.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;

function durationMs(s: string): number {
  const d = parseSchedule(s);
  if (d.length !== 1) throw new Error(`one duration, e.g. 24h, not ${JSON.stringify(s)}`);
  return d[0] as number;
}

const amount = z
  .string()
  .refine(
    (a) => /^\d{1,14}(\.\d{1,2})?$/.test(a) && toPaise(a) > 0n,
    'a decimal amount above 0 with at most 2 decimals, e.g. "50000.00"',
  );

const period = z.string().transform((s, ctx) => {
  try {
    const ms = durationMs(s);
    if (ms < MINUTE || ms > 365 * 24 * HOUR) throw new Error('between 1m and 8760h');
    return ms;
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'bad duration' });
    return z.NEVER;
  }
});

const base = {
  approvers: z.number().int().min(1).max(5).default(1),
  role: z.enum(['operator', 'approver']).default('approver'),
};

const ruleSchema = z.discriminatedUnion('rule', [
  z.object({ rule: z.literal('amount_at_least'), amount, ...base }).strict(),
  z.object({ rule: z.literal('batch_total_at_least'), amount, ...base }).strict(),
  z.object({ rule: z.literal('first_payout_to_beneficiary'), ...base }).strict(),
  z.object({ rule: z.literal('beneficiary_changed_within'), period, ...base }).strict(),
  z
    .object({
      rule: z.literal('daily_sum_above'),
      scope: z.enum(['account', 'beneficiary']),
      cap: amount,
      ...base,
    })
    .strict(),
]);

const policySchema = z
  .object({
    accountId: z.string().min(1),
    rules: z.array(ruleSchema).min(1),
    expiry: period.optional(),
  })
  .strict();

const policiesSchema = env.json(
  z
    .array(policySchema)
    .refine((a) => new Set(a.map((x) => x.accountId)).size === a.length, 'one policy per account'),
  [] as Array<z.infer<typeof policySchema>>,
);

export const APPROVAL_VARS = {
  APPROVAL_POLICIES: envVar({
    schema: policiesSchema,
    default: '',
    description:
      'Approval before sending, per account: JSON array of {accountId, rules: [...], expiry? (as APPROVAL_EXPIRY)}. A rule is {rule, approvers? (distinct people, 1-5, default 1), role? (operator or approver, default approver)} plus: amount_at_least {amount}, batch_total_at_least {amount}, first_payout_to_beneficiary, beneficiary_changed_within {period, e.g. "72h"}, daily_sum_above {scope: account or beneficiary, cap}. Amounts are decimal strings. A payout or batch a rule catches waits in AWAITING_APPROVAL until enough people approve it in the operations API (docs/OPERATIONS.md, "Approval before sending"). Empty: nothing waits, and intake does no extra work',
  }),
  APPROVAL_EXPIRY: envVar({
    schema: period,
    default: '24h',
    description:
      'How long a payout or batch waits for its approvals before it ends REJECTED (reason approval_expired; nothing was sent). Per account: APPROVAL_POLICIES[].expiry',
  }),
  APPROVAL_EXPIRY_POLL_MS: envVar({
    schema: z.coerce.number().int().min(100),
    default: '30000',
    description: 'How often the reconciler role looks for approval holds past their expiry',
  }),
};

/** The policies by account, from the validated pipeline section. */
export function approvalPolicies(c: {
  APPROVAL_POLICIES: Array<z.infer<typeof policySchema>>;
  APPROVAL_EXPIRY: number;
}): ApprovalPolicies {
  const out = new Map<string, ReturnType<typeof approvalPolicy>>();
  for (const p of c.APPROVAL_POLICIES) {
    const rules = p.rules.map((r): ApprovalRule => {
      const b = { approvers: r.approvers, role: r.role };
      switch (r.rule) {
        case 'amount_at_least':
        case 'batch_total_at_least':
          return { ...b, rule: r.rule, amount: toPaise(r.amount) };
        case 'first_payout_to_beneficiary':
          return { ...b, rule: r.rule };
        case 'beneficiary_changed_within':
          return { ...b, rule: r.rule, withinMs: r.period };
        case 'daily_sum_above':
          return { ...b, rule: r.rule, scope: r.scope, cap: toPaise(r.cap) };
      }
    });
    out.set(
      p.accountId,
      approvalPolicy({ accountId: p.accountId, rules, expiryMs: p.expiry ?? c.APPROVAL_EXPIRY }),
    );
  }
  return out;
}
