import {
  type ApprovalRepository,
  type BatchLedger,
  type BatchRow,
  fromPaise,
  type LedgerTransaction,
  type NewHold,
  type PayoutLedger,
  type PayoutRow,
  toPaise,
} from '#ledger';
import { type ApprovalHolds, type HeldBatch } from '../shared/approval-ports.js';
import { type ApprovalPolicies, type ApprovalPolicy } from './approval-policy.js';
import { type BeneficiaryChangeFact, decideHold, type HoldFacts } from './decide-hold.js';

/** The reason a held payout or batch carries while it waits (its event's `reason`). */
export const APPROVAL_REQUIRED = 'approval_required';

export interface ApprovalGateDeps {
  readonly policies: ApprovalPolicies;
  readonly approvals: ApprovalRepository;
  readonly ledger: Pick<PayoutLedger, 'apply'>;
  readonly batchLedger: Pick<BatchLedger, 'apply'>;
}

/** One new payout or batch of an account with a policy, as the rules see it. */
interface Candidate {
  readonly payout?: PayoutRow;
  readonly batch?: BatchRow;
  readonly amount: bigint;
  readonly total?: bigint;
  readonly sum: bigint;
  /** Amounts per beneficiary it pays. */
  readonly perBene: ReadonlyMap<string, bigint>;
}

const beneOf = (x: { readonly beneId?: unknown }): string | undefined =>
  typeof x.beneId === 'string' ? x.beneId : undefined;

function candidateOfPayout(row: PayoutRow): Candidate {
  const amount = toPaise(row.amount);
  const bene = beneOf(row.request);
  return { payout: row, amount, sum: amount, perBene: new Map(bene ? [[bene, amount]] : []) };
}

function candidateOfBatch({ row, entries }: HeldBatch): Candidate {
  let max = 0n;
  const perBene = new Map<string, bigint>();
  for (const e of entries) {
    const a = toPaise(e.amount);
    if (a > max) max = a;
    const bene = beneOf(e);
    if (bene) perBene.set(bene, (perBene.get(bene) ?? 0n) + a);
  }
  const total = toPaise(row.totalAmount);
  return { batch: row, amount: max, total, sum: total, perBene };
}

/**
 * Intake's approval step (issue 30): in intake's own transaction, the new payouts and batches of an
 * account with a policy are asked against it; a caught one moves to AWAITING_APPROVAL through the
 * ledger (its event, its history row) and gets its hold (the rules, the policy's version, the
 * approvals it needs, its expiry). Only the facts the account's rules need are read: an amount
 * rule alone reads nothing. Accounts without a policy are not looked at.
 */
export class ApprovalGate implements ApprovalHolds {
  constructor(private readonly d: ApprovalGateDeps) {}

  async hold(
    tx: LedgerTransaction,
    payouts: readonly PayoutRow[],
    batches: readonly HeldBatch[],
  ): Promise<void> {
    const byAccount = new Map<string, Candidate[]>();
    const add = (accountId: string, c: Candidate) => {
      if (!this.d.policies.has(accountId)) return;
      byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), c]);
    };
    for (const p of payouts) add(p.accountId, candidateOfPayout(p));
    for (const b of batches) add(b.row.accountId, candidateOfBatch(b));
    for (const [accountId, candidates] of byAccount)
      await this.holdOfAccount(tx, this.d.policies.get(accountId)!, candidates);
  }

  private async holdOfAccount(
    tx: LedgerTransaction,
    policy: ApprovalPolicy,
    candidates: readonly Candidate[],
  ): Promise<void> {
    const c = tx.client;
    const repo = this.d.approvals;
    const has = (name: string) => policy.rules.some((r) => r.rule === name);
    const benes = [...new Set(candidates.flatMap((x) => [...x.perBene.keys()]))];
    const paid = has('first_payout_to_beneficiary')
      ? await repo.paidBefore(c, policy.accountId, benes)
      : undefined;
    const firstTo = paid ? new Set(benes.filter((b) => !paid.has(b))) : undefined;
    const periods = policy.rules.flatMap((r) =>
      r.rule === 'beneficiary_changed_within' ? [r.withinMs] : [],
    );
    const changes: BeneficiaryChangeFact[] =
      periods.length > 0 ? await repo.recentChanges(c, policy.accountId, benes, Math.max(...periods)) : [];
    const daily = has('daily_sum_above') ? await this.daily(tx, policy.accountId, candidates) : undefined;

    const payoutHolds: Array<{ row: PayoutRow; hold: Omit<NewHold, 'subjectId'> }> = [];
    const batchHolds: Array<{ row: BatchRow; hold: Omit<NewHold, 'subjectId'> }> = [];
    candidates.forEach((x, i) => {
      const facts: HoldFacts = {
        amount: x.amount,
        ...(x.total === undefined ? {} : { batchTotal: x.total }),
        beneIds: [...x.perBene.keys()],
        ...(firstTo ? { firstTo } : {}),
        changes,
        ...(daily ? { accountDaily: daily.account[i]!, beneDaily: daily.bene[i]! } : {}),
      };
      const decision = decideHold(policy, facts);
      if (!decision) return;
      const hold: Omit<NewHold, 'subjectId'> = {
        subject: x.payout ? 'payout' : 'batch',
        accountId: policy.accountId,
        transferId: x.payout ? x.payout.transferId : x.batch!.batchTransferId,
        amount: x.payout ? x.payout.amount : x.batch!.totalAmount,
        rules: decision.rules,
        policyVersion: policy.version,
        approvalsNeeded: decision.approvalsNeeded,
        approverRole: decision.role,
        excluded: decision.excluded,
        expiresInMs: policy.expiryMs,
      };
      if (x.payout) payoutHolds.push({ row: x.payout, hold });
      else if (x.batch) batchHolds.push({ row: x.batch, hold });
    });
    if (payoutHolds.length === 0 && batchHolds.length === 0) return;

    const holds: NewHold[] = [];
    const moved = await this.d.ledger.apply(
      tx,
      payoutHolds.map(({ row, hold }) => ({
        row,
        to: 'AWAITING_APPROVAL' as const,
        fields: { reason: APPROVAL_REQUIRED },
        log: { rules: hold.rules.map((r) => r.rule), policyVersion: hold.policyVersion },
      })),
      'intake',
    );
    moved.forEach((m, i) => {
      if (m) holds.push({ ...payoutHolds[i]!.hold, subjectId: m.id });
    });
    for (const { row, hold } of batchHolds) {
      const b = await this.d.batchLedger.apply(
        tx,
        {
          batch: row,
          to: 'AWAITING_APPROVAL',
          fields: { reason: APPROVAL_REQUIRED },
          log: { rules: hold.rules.map((r) => r.rule), policyVersion: hold.policyVersion },
        },
        'intake',
      );
      if (b) holds.push({ ...hold, subjectId: b.id });
    }
    await repo.insert(c, holds);
  }

  /**
   * Adds the candidates to the day's sums (one statement) and gives each its sums after it, in
   * the order they came: each key's new total, less what the candidates after it added.
   */
  private async daily(
    tx: LedgerTransaction,
    accountId: string,
    candidates: readonly Candidate[],
  ): Promise<{ account: bigint[]; bene: Array<Map<string, bigint>> }> {
    const added = new Map<string, bigint>([['', 0n]]);
    for (const x of candidates) {
      added.set('', added.get('')! + x.sum);
      for (const [b, a] of x.perBene) added.set(b, (added.get(b) ?? 0n) + a);
    }
    const totals = await this.d.approvals.addDaily(
      tx.client,
      accountId,
      new Map([...added].map(([k, v]) => [k, fromPaise(v)])),
    );
    // The sum before this Kafka batch's candidates, per key; then each candidate adds its part.
    const running = new Map([...added].map(([k, v]) => [k, toPaise(totals.get(k) ?? '0') - v]));
    const account: bigint[] = [];
    const bene: Array<Map<string, bigint>> = [];
    for (const x of candidates) {
      running.set('', running.get('')! + x.sum);
      account.push(running.get('')!);
      const mine = new Map<string, bigint>();
      for (const [b, a] of x.perBene) {
        running.set(b, running.get(b)! + a);
        mine.set(b, running.get(b)!);
      }
      bene.push(mine);
    }
    return { account, bene };
  }
}
