import { beneficiaryOf, type BatchItemRow, type BatchRow, type PayoutRow } from '#ledger';

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
  statusCode: string | null;
  referenceId: string | null;
  svcTransferId: string | null;
  utr: string | null;
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
    statusCode: r.statusCode,
    referenceId: r.referenceId,
    svcTransferId: r.svcTransferId,
    utr: r.utr,
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
            beneficiary: beneficiaryOf(i.entry) ?? null,
          })),
        }
      : {}),
  };
}
