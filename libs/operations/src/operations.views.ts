import { type TransferFee } from '#contracts';
import {
  beneficiaryOf,
  type BatchItemRow,
  type BatchRow,
  type ContradictionRow,
  type HistoryRow,
  type PayoutRow,
} from '#ledger';
import { type OperatorActionRow } from './operator-action.repository.js';
import { type ProposalRow } from './proposal.repository.js';
import { type SearchRow } from './search.repository.js';

/**
 * What the operations API shows. Built field by field from an allow-list: requests are never
 * copied whole, so a field added to a command later cannot leak here. The beneficiary is masked
 * (account numbers: last 4; VPAs: first letters and the handle); request secrets are never read.
 */
export interface PayoutView {
  accountId: string;
  transferId: string;
  kind: string;
  status: string;
  version: number;
  attempt: number;
  amount: string;
  reason: string | null;
  /** Where it waits at the provider (issue 29): queued, approval_pending, ...; null: not said. */
  subState: string | null;
  statusCode: string | null;
  referenceId: string | null;
  svcTransferId: string | null;
  utr: string | null;
  /** The provider's fee of the transfer (issue 32), once settled and said; null: not known. */
  fee: TransferFee | null;
  requestId: string | null;
  nextCheckAt: string | null;
  checkCount: number;
  beneficiary: ReturnType<typeof beneficiaryOf> | null;
  createdAt: string;
  updatedAt: string;
}

export interface BatchItemView {
  transferId: string;
  position: number;
  amount: string;
  status: string;
  version: number;
  reason: string | null;
  referenceId: string | null;
  utr: string | null;
  /** Where the entry waits at the provider (issue 29); null: not said, or settled. */
  subState: string | null;
  /** The provider's fee of the entry (issue 32); null: not known. */
  fee: TransferFee | null;
  beneficiary: ReturnType<typeof beneficiaryOf> | null;
}

export interface BatchView {
  accountId: string;
  batchTransferId: string;
  batchFormat: string;
  status: string;
  version: number;
  attempt: number;
  entryCount: number;
  totalAmount: string;
  reason: string | null;
  statusCode: string | null;
  referenceId: string | null;
  requestId: string | null;
  createdAt: string;
  updatedAt: string | null;
  items?: BatchItemView[];
}

export function payoutView(r: PayoutRow): PayoutView {
  return {
    accountId: r.accountId,
    transferId: r.transferId,
    kind: r.kind,
    status: r.status,
    version: r.version,
    attempt: r.attempt,
    amount: r.amount,
    reason: r.reason,
    subState: r.subState ?? null,
    statusCode: r.statusCode,
    referenceId: r.referenceId,
    svcTransferId: r.svcTransferId,
    utr: r.utr,
    fee: r.fee ?? null,
    requestId: r.requestId,
    nextCheckAt: r.nextCheckAt?.toISOString() ?? null,
    checkCount: r.checkCount,
    beneficiary: beneficiaryOf(r.request) ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function batchView(b: BatchRow, items?: readonly BatchItemRow[]): BatchView {
  return {
    accountId: b.accountId,
    batchTransferId: b.batchTransferId,
    batchFormat: b.batchFormat,
    status: b.status,
    version: b.version,
    attempt: b.attempt,
    entryCount: b.entryCount,
    totalAmount: b.totalAmount,
    reason: b.reason,
    statusCode: b.statusCode,
    referenceId: b.referenceId,
    requestId: b.requestId,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt?.toISOString() ?? null,
    ...(items
      ? {
          items: items.map((i) => ({
            transferId: i.transferId,
            position: i.position,
            amount: i.amount,
            status: i.status,
            version: i.version,
            reason: i.reason,
            referenceId: i.referenceId,
            utr: i.utr,
            subState: i.subState ?? null,
            fee: i.fee ?? null,
            beneficiary: beneficiaryOf(i.entry) ?? null,
          })),
        }
      : {}),
  };
}

/** A row of a search or an export: a payout, or a batch entry (`batchTransferId` set). */
export interface SearchItemView {
  accountId: string;
  transferId: string;
  batchTransferId: string | null;
  kind: string;
  status: string;
  version: number;
  amount: string;
  utr: string | null;
  referenceId: string | null;
  reason: string | null;
  /** A payout's or batch entry's provider sub-state (issue 29); null when not said. */
  subState: string | null;
  beneficiary: ReturnType<typeof beneficiaryOf> | null;
  createdAt: string;
  updatedAt: string;
}

export function searchItemView(r: SearchRow): SearchItemView {
  return {
    accountId: r.accountId,
    transferId: r.transferId,
    batchTransferId: r.batchTransferId,
    kind: r.kind,
    status: r.status,
    version: r.version,
    amount: r.amount,
    utr: r.utr,
    referenceId: r.referenceId,
    reason: r.reason,
    subState: r.subState,
    beneficiary: beneficiaryOf(r.request) ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export interface HistoryView {
  at: string;
  subject: string;
  transferId: string;
  from: string | null;
  to: string;
  version: number;
  cause: string;
  reason: string | null;
  statusCode: string | null;
  referenceId: string | null;
  utr: string | null;
  operatorId: string | null;
  approverId: string | null;
  proposalId: string | null;
}

export function historyView(h: HistoryRow): HistoryView {
  return {
    at: h.at.toISOString(),
    subject: h.subject,
    transferId: h.transferId,
    from: h.from,
    to: h.to,
    version: h.version,
    cause: h.cause,
    reason: h.reason,
    statusCode: h.statusCode,
    referenceId: h.referenceId,
    utr: h.utr,
    operatorId: h.operatorId,
    approverId: h.approverId,
    proposalId: h.proposalId,
  };
}

export interface ActionView {
  at: string;
  /** The human answerable; their display name; how they came in (configured, session, token:<name>). */
  operatorId: string;
  operatorName: string | null;
  via: string | null;
  role: string;
  action: string;
  result: string;
  eventId: string | null;
  proposalId: string | null;
}

export function actionView(a: OperatorActionRow): ActionView {
  return {
    at: a.at.toISOString(),
    operatorId: a.operatorId,
    operatorName: a.operatorName,
    via: a.via,
    role: a.role,
    action: a.action,
    result: a.result,
    eventId: a.eventId,
    proposalId: a.proposalId,
  };
}

export interface ProposalView {
  id: string;
  accountId: string;
  transferId: string;
  fromVersion: number;
  outcome: string;
  utr: string | null;
  note: string;
  /** The proposer's human id (a token's proposal is its issuer's), display name, and way in. */
  proposedBy: string;
  proposedByName: string;
  proposedVia: string;
  proposedAt: string;
  state: string;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedVia: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
}

export function proposalView(p: ProposalRow): ProposalView {
  return {
    id: p.id,
    accountId: p.accountId,
    transferId: p.transferId,
    fromVersion: p.fromVersion,
    outcome: p.outcome,
    utr: p.utr,
    note: p.note,
    proposedBy: p.proposedBy,
    proposedByName: p.proposedByName,
    proposedVia: p.proposedVia,
    proposedAt: p.proposedAt.toISOString(),
    state: p.state,
    decidedBy: p.decidedBy,
    decidedByName: p.decidedByName,
    decidedVia: p.decidedVia,
    decidedAt: p.decidedAt?.toISOString() ?? null,
    decisionNote: p.decisionNote,
  };
}

/** A contradiction of a published terminal state (ADR 0018), as the queue and the API show it. */
export interface ContradictionView {
  id: string;
  accountId: string;
  transferId: string;
  /** Set on a batch entry's contradiction: the batch the entry is in. */
  batchTransferId: string | null;
  version: number;
  kind: string;
  published: string;
  observed: string;
  source: string;
  eventId: string;
  seenAt: string;
  /** The first person (human id, display name): it waits for a second, other person to confirm. */
  acknowledgementProposedBy: string | null;
  acknowledgementProposedByName: string | null;
  acknowledgementProposedAt: string | null;
  /** The second person, who confirmed: set, it has left the queue. */
  acknowledgedBy: string | null;
  acknowledgedByName: string | null;
  acknowledgedAt: string | null;
}

export function contradictionView(c: ContradictionRow): ContradictionView {
  return {
    id: c.id,
    accountId: c.accountId,
    transferId: c.transferId,
    batchTransferId: c.batchTransferId,
    version: c.version,
    kind: c.kind,
    published: c.published,
    observed: c.observed,
    source: c.source,
    eventId: c.eventId,
    seenAt: c.seenAt.toISOString(),
    acknowledgementProposedBy: c.ackProposedBy,
    acknowledgementProposedByName: c.ackProposedByName,
    acknowledgementProposedAt: c.ackProposedAt?.toISOString() ?? null,
    acknowledgedBy: c.acknowledgedBy,
    acknowledgedByName: c.acknowledgedByName,
    acknowledgedAt: c.acknowledgedAt?.toISOString() ?? null,
  };
}
