import { istDay, istDayStart } from '../core/clock.js';
import { formatPaise } from '../core/money.js';
import { stepAt } from '../core/state.js';
import { BENE_HISTORY as R } from '../tables/bene-history.table.js';
import { fail } from '../tables/row.js';
import { queryParam, type LegacyEndpoint } from './endpoint.js';
import { BENE_ID_RE } from './request-transfer.handler.js';

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
const MODE_NAMES: Readonly<Record<string, string>> = {
  banktransfer: 'IMPS',
  wallet_a: 'WALLET_A',
  wallet_b: 'WALLET_B',
};

function day(q: Readonly<Record<string, unknown>>, key: string): string {
  const v = queryParam(q, key);
  if (v === undefined) fail(R.dateFormat);
  if (
    v !== '' &&
    (!DAY_RE.test(v) ||
      Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ||
      new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v)
  ) {
    fail(R.dateFormat);
  }
  return v;
}

function positiveInt(v: string | undefined, fallback: number): number | undefined {
  if (v === '') return fallback;
  if (v === undefined || !/^-?\d{1,6}$/.test(v)) return undefined;
  return Number(v);
}

/** GET /payout/v1/beneHistory: a beneficiary's transfers, latest first, 25 a page at most. */
export const beneHistory: LegacyEndpoint = {
  id: 'beneHistory',
  fields: ['beneId', 'startDate', 'endDate', 'perPage', 'page'],
  method: 'GET',
  paths: ['/payout/v1/beneHistory'],
  group: 'other',
  summary: 'Get Beneficiary History',
  table: R,
  auth: 'bearer',
  row520: R.unknownError,
  handle({ world, query }) {
    const beneId = queryParam(query, 'beneId');
    if (!beneId || !BENE_ID_RE.test(beneId)) fail(R.invalidBeneId);
    const startDate = day(query, 'startDate');
    const endDate = day(query, 'endDate');
    if (startDate !== '' && endDate === '') fail(R.invalidDateRange);
    const now = world.clock.now();
    if (endDate !== '' && endDate > istDay(now - DAY_MS)) fail(R.invalidDateRange);
    if (startDate !== '' && startDate > endDate) fail(R.startAfterEnd);
    const perPage = positiveInt(queryParam(query, 'perPage'), 25);
    if (perPage === undefined || perPage > 25 || perPage < 1) fail(R.perPageAbove);
    const page = positiveInt(queryParam(query, 'page'), 1);
    if (page === undefined || page < 1) fail(R.pageBelowOne);
    const account = world.account;
    if (!account.beneficiaries.has(beneId)) fail(R.invalidBeneId);
    account.settle();
    const from = startDate === '' ? Number.NEGATIVE_INFINITY : istDayStart(startDate);
    const to = endDate === '' ? Number.POSITIVE_INFINITY : istDayStart(endDate) + DAY_MS;
    const rows = [...account.transfers.values()]
      .filter((t) => t.beneId === beneId && t.addedOn >= from && t.addedOn < to)
      .sort((a, b) => b.addedOn - a.addedOn || Number(b.referenceId) - Number(a.referenceId));
    const transfers = rows.slice((page - 1) * perPage, page * perPage).map((t) => ({
      transferDate: new Date(t.addedOn).toISOString(),
      amount: formatPaise(t.amount),
      mode: MODE_NAMES[t.mode] ?? t.mode.toUpperCase(),
      beneId: t.beneId,
      status: stepAt(t, now).status,
    }));
    return { row: R.success, data: { transfers } };
  },
};
