import type pg from 'pg';
import { inTransaction } from '#database';
import {
  canMove,
  type BatchRepository,
  type ContradictionRepository,
  type HistoryRepository,
  type PayoutChange,
  type PayoutLedger,
  type PayoutRepository,
  type PayoutRow,
} from '#ledger';
import { maskDigitRuns, type AppLogger } from '#observability';
import { apiOf, hasStatusCheck } from '#pipeline';
import { OperationsError, OperationsErrorCode } from './operations.errors.js';
import {
  actionView,
  batchView,
  contradictionView,
  historyView,
  payoutView,
  proposalView,
  searchItemView,
  type ActionView,
  type BatchView,
  type ContradictionView,
  type HistoryView,
  type PayoutView,
  type ProposalView,
  type SearchItemView,
} from './operations.views.js';
import { type OperatorActionEntry, type OperatorActionRepository } from './operator-action.repository.js';
import { roleAllows, type Operator, type OperatorAction } from './operators.js';
import { type ProposalRepository, type ProposalState, type ProposedOutcome } from './proposal.repository.js';
import { type SearchRepository, type SearchRow } from './search.repository.js';
import {
  type Cursor,
  decodeCursor,
  encodeCursor,
  MAX_PAGE,
  parseSearch,
  type ParsedSearch,
  type SearchQuery,
} from './search.js';

/**
 * Puts a dead outbox row back to pending (the relay's replay), which unblocks its key: the row is
 * its key's head, and a pending copy of its event behind it is dropped in favour of the replayed row.
 */
export type ReplayDead = (idOrEventId: string) => Promise<'replayed' | 'not-found'>;

export interface OperationsDeps {
  pool: pg.Pool;
  payouts: PayoutRepository;
  batches: BatchRepository;
  /** The reopen and the settlement of a payout are state changes: through the ledger step. */
  ledger: PayoutLedger;
  history: HistoryRepository;
  search: SearchRepository;
  actions: OperatorActionRepository;
  proposals: ProposalRepository;
  replayDead: ReplayDead;
  logger: AppLogger;
  /** Contradictions of published terminal states (ADR 0018): listed in the queue until acknowledged. */
  contradictions?: ContradictionRepository;
}

export interface RecheckResult {
  /** `scheduled`: due now, same state; `reopened`: REQUIRES_ATTENTION moved back to UNKNOWN. */
  action: 'scheduled' | 'reopened';
  payout: PayoutView;
}

export interface SearchPage {
  items: SearchItemView[];
  /** Pass as `cursor` for the next page; null: this was the last one. */
  nextCursor: string | null;
}

export interface Timeline {
  payout: PayoutView;
  history: HistoryView[];
  actions: ActionView[];
  proposals: ProposalView[];
}

export interface ProposalInput {
  outcome?: unknown;
  utr?: unknown;
  note?: unknown;
  /** The payout's version the operator saw: a proposal on a row that moved on is refused. */
  version?: unknown;
}

export const OPERATOR_RECHECK_REASON = 'operator_recheck';
/** The reason a payout settled by four-eyes carries (its event's `reason`). */
export const OPERATOR_SETTLED_REASON = 'settled_by_operator';
export const MAX_ATTENTION_LIMIT = 500;
const EXPORT_PAGE = 500;
const UTR = /^[A-Za-z0-9]{6,35}$/;
const MAX_NOTE = 500;

/**
 * The operator's use cases: look up payouts and batches (masked), search and export them, show a
 * payout's timeline, list what needs a person, ask the reconciler to check a payout now, replay a
 * dead outbox row, and settle a REQUIRES_ATTENTION payout with four eyes (one operator proposes, a
 * different approver approves; only then the ledger moves it). Every action is recorded with who
 * did it. A recheck never sends anything itself: it only makes a row due (or moves
 * REQUIRES_ATTENTION back to UNKNOWN), and the reconciler decides, with its usual rules.
 */
export class OperationsService {
  constructor(private readonly d: OperationsDeps) {}

  async payout(accountId: string, transferId: string): Promise<PayoutView> {
    return payoutView(await this.find(accountId, transferId));
  }

  async batch(accountId: string, batchTransferId: string): Promise<BatchView> {
    const row = await this.d.batches.findOne(this.d.pool, accountId, batchTransferId);
    if (!row) throw notFound(`no batch ${batchTransferId} for account ${accountId}`);
    const items = await this.d.batches.items(this.d.pool, row.id);
    return batchView(row, items);
  }

  /**
   * What needs a person: REQUIRES_ATTENTION payouts and batches, and the contradictions of
   * published terminal states no one has acknowledged yet (ADR 0018), oldest first.
   */
  async requiringAttention(limit: number): Promise<{
    payouts: PayoutView[];
    batches: BatchView[];
    contradictions: ContradictionView[];
  }> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ATTENTION_LIMIT)
      throw new OperationsError(
        OperationsErrorCode.InvalidInput,
        `limit must be an integer from 1 to ${MAX_ATTENTION_LIMIT}`,
      );
    const [payouts, batches, contradictions] = await Promise.all([
      this.d.payouts.requiringAttention(this.d.pool, limit),
      this.d.batches.requiringAttention(this.d.pool, limit),
      this.d.contradictions?.open(this.d.pool, limit) ?? [],
    ]);
    return {
      payouts: payouts.map(payoutView),
      batches: batches.map((b) => batchView(b)),
      contradictions: contradictions.map(contradictionView),
    };
  }

  /**
   * A person has seen a contradiction (and settles the money with the provider and upstream, outside
   * this service): it leaves the queue. The payout's published state is not changed. Recorded with
   * who did it; an unknown or already acknowledged one is 404 / 409.
   */
  async acknowledgeContradiction(who: Operator, id: string, note?: unknown): Promise<ContradictionView> {
    const repo = this.d.contradictions;
    if (!repo || !/^\d{1,18}$/.test(id)) throw notFound(`no contradiction ${id}`);
    if (note !== undefined && (typeof note !== 'string' || note.length > 500))
      throw new OperationsError(
        OperationsErrorCode.InvalidInput,
        'note must be a string of at most 500 characters',
      );
    const text = note === undefined ? null : maskDigitRuns(note);
    return this.recorded(who, 'acknowledge', {}, async () => {
      const done = await repo.acknowledge(this.d.pool, id, who.id, text);
      if (done) return { value: contradictionView(done), result: 'acknowledged' };
      throw new OperationsError(OperationsErrorCode.NotFound, `no open contradiction ${id}`);
    });
  }

  /** One page of a search: payouts newest first, or a batch's entries in order (`batch`). */
  async search(q: SearchQuery): Promise<SearchPage> {
    const s = parseSearch(q);
    // One more than asked: whether there is a next page, without a count.
    const rows = await this.page(s, s.limit + 1);
    const items = rows.slice(0, s.limit);
    const last = items[items.length - 1];
    return {
      items: items.map(searchItemView),
      nextCursor: rows.length > s.limit && last ? encodeCursor(cursorOf(last)) : null,
    };
  }

  /**
   * Every row of a search, page by page (keyset: no duplicates, no snapshot held open), for a
   * streamed export. The query is validated before the first row: a bad one throws at once.
   */
  exportRows(q: SearchQuery): AsyncGenerator<SearchItemView> {
    const first = parseSearch({ ...q, limit: String(EXPORT_PAGE) }, EXPORT_PAGE);
    return this.exportFrom(first);
  }

  private async *exportFrom(first: ParsedSearch): AsyncGenerator<SearchItemView> {
    let s = first;
    for (;;) {
      const rows = await this.page(s, s.limit);
      for (const r of rows) yield searchItemView(r);
      const last = rows[rows.length - 1];
      if (rows.length < s.limit || !last) return;
      s = { ...s, cursor: cursorOf(last) };
    }
  }

  private page(s: ParsedSearch, limit: number): Promise<SearchRow[]> {
    const c = s.cursor;
    if (s.batch !== undefined)
      return this.d.search.batchEntries(
        this.d.pool,
        s.batch,
        s.filter,
        c && 'batchId' in c ? c : null,
        Math.min(limit, MAX_PAGE + 1),
      );
    return this.d.search.payouts(this.d.pool, s.filter, c && 'createdAt' in c ? c : null, limit);
  }

  /** A payout's whole story: its current state, every state change, every operator action. */
  async timeline(accountId: string, transferId: string): Promise<Timeline> {
    const row = await this.find(accountId, transferId);
    const [history, actions, proposals] = await Promise.all([
      this.d.history.ofSubject(this.d.pool, 'payout', row.id),
      this.d.actions.ofPayout(this.d.pool, row.id),
      this.d.proposals.ofPayout(this.d.pool, row.id),
    ]);
    return {
      payout: payoutView(row),
      history: history.map(historyView),
      actions: actions.map(actionView),
      proposals: proposals.map(proposalView),
    };
  }

  /** A batch's state changes and its entries'. */
  async batchTimeline(
    accountId: string,
    batchTransferId: string,
  ): Promise<{ batch: BatchView; history: HistoryView[] }> {
    const row = await this.d.batches.findOne(this.d.pool, accountId, batchTransferId);
    if (!row) throw notFound(`no batch ${batchTransferId} for account ${accountId}`);
    const history = await this.d.history.ofSubject(this.d.pool, 'batch', row.id);
    return { batch: batchView(row), history: history.map(historyView) };
  }

  async recheck(who: Operator, accountId: string, transferId: string): Promise<RecheckResult> {
    allow(who, 'recheck');
    const row = await this.find(accountId, transferId);
    return this.recorded(who, 'recheck', { payoutId: row.id, accountId, transferId }, async () => {
      const r = await this.recheckRow(who, row);
      return { value: r, result: r.action };
    });
  }

  private async recheckRow(who: Operator, row: PayoutRow): Promise<RecheckResult> {
    const { transferId } = row;
    switch (row.status) {
      case 'SUCCESS':
      case 'FAILED':
      case 'REJECTED':
      case 'REVERSED':
        throw new OperationsError(
          OperationsErrorCode.Terminal,
          `payout ${transferId} is ${row.status}, a final state: there is nothing to check`,
        );
      case 'RECEIVED':
        throw new OperationsError(
          OperationsErrorCode.NotSubmitted,
          `payout ${transferId} has not been sent yet; the executor will send it`,
        );
      case 'REQUIRES_ATTENTION':
        return this.reopen(who, row);
      case 'PENDING':
      case 'UNKNOWN':
      case 'SUBMITTING': {
        const due = await this.d.payouts.checkNow(this.d.pool, row.id);
        if (!due)
          throw new OperationsError(
            OperationsErrorCode.InFlight,
            `payout ${transferId} is being worked on right now (a call or a check is in flight); try again shortly`,
          );
        this.d.logger.info(
          { transferId, requestId: row.requestId, status: row.status, operator: who.id },
          'operator recheck: payout due for a check now',
        );
        return { action: 'scheduled', payout: payoutView(due) };
      }
    }
  }

  async replayDeadEvent(who: Operator, eventId: string): Promise<void> {
    allow(who, 'replay');
    await this.recorded(who, 'replay', { eventId }, async () => {
      const result = await this.d.replayDead(eventId);
      if (result === 'not-found') throw notFound(`no dead outbox row for ${eventId}`);
      this.d.logger.info({ eventId, operator: who.id }, 'operator replay: dead outbox row is pending again');
      return { value: undefined, result };
    });
  }

  /**
   * Four eyes, first pair: propose settling a REQUIRES_ATTENTION payout as SUCCESS (with the
   * UTR) or FAILED, with a note, on the version the operator saw. Nothing moves yet.
   */
  async propose(
    who: Operator,
    accountId: string,
    transferId: string,
    input: ProposalInput,
  ): Promise<ProposalView> {
    allow(who, 'propose');
    const p = proposalInput(input);
    const row = await this.find(accountId, transferId);
    return this.recorded(who, 'propose', { payoutId: row.id, accountId, transferId }, async () => {
      if (row.status !== 'REQUIRES_ATTENTION')
        throw new OperationsError(
          OperationsErrorCode.NotRequiringAttention,
          `payout ${transferId} is ${row.status}: only a REQUIRES_ATTENTION payout is settled by a person`,
        );
      if (row.version !== p.version)
        throw new OperationsError(
          OperationsErrorCode.ConcurrentChange,
          `payout ${transferId} is at version ${row.version}, not ${p.version}: it moved on; look it up again`,
        );
      const proposal = await inTransaction(this.d.pool, async (c) => {
        await this.d.proposals.closeStale(c, row.id, row.version);
        return this.d.proposals.insert(c, {
          payoutId: row.id,
          accountId,
          transferId,
          fromVersion: row.version,
          outcome: p.outcome,
          utr: p.utr,
          note: p.note,
          proposedBy: who.id,
        });
      });
      if (!proposal)
        throw new OperationsError(
          OperationsErrorCode.ProposalOpen,
          `payout ${transferId} already has an open proposal: approve or reject it first`,
        );
      this.d.logger.info(
        { transferId, proposalId: proposal.id, outcome: p.outcome, operator: who.id },
        'operator proposed a settlement',
      );
      return { value: proposalView(proposal), result: 'proposed', proposalId: proposal.id };
    });
  }

  /**
   * Four eyes, second pair: a different approver approves. In one transaction: the proposal is
   * still open and its payout still at the proposed version, the ledger moves the payout (its
   * event, its history row with both identities), the proposal is closed. A payout that moved on
   * meanwhile closes the proposal as stale and moves nothing.
   */
  async approve(who: Operator, proposalId: string, note?: unknown): Promise<ProposalView> {
    return this.decide(who, proposalId, 'approved', note);
  }

  async reject(who: Operator, proposalId: string, note?: unknown): Promise<ProposalView> {
    return this.decide(who, proposalId, 'rejected', note);
  }

  async proposals(query: SearchQuery): Promise<{
    items: ProposalView[];
    nextCursor: string | null;
  }> {
    const q: Record<string, string | undefined> = {};
    for (const k of ['state', 'limit', 'cursor']) {
      const v = query[k];
      if (typeof v !== 'string' && v !== undefined) throw invalid(`${k} is given more than once`);
      q[k] = v;
    }
    const state = q['state'] === undefined || q['state'] === '' || q['state'] === 'all' ? null : q['state'];
    if (state !== null && !['open', 'approved', 'rejected', 'stale'].includes(state))
      throw invalid('state must be open, approved, rejected, stale or all');
    const limit = q['limit'] === undefined ? 50 : Number(q['limit']);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
      throw invalid(`limit must be an integer from 1 to ${MAX_PAGE}`);
    const cursor = decodeCursor(q['cursor']);
    if (cursor && (!('id' in cursor) || 'createdAt' in cursor))
      throw invalid('cursor is not one this API returned');
    const rows = await this.d.proposals.list(
      this.d.pool,
      state as ProposalState | null,
      cursor?.id ?? null,
      limit + 1,
    );
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map(proposalView),
      nextCursor: rows.length > limit && last ? encodeCursor({ id: last.id }) : null,
    };
  }

  private async decide(
    who: Operator,
    proposalId: string,
    decision: 'approved' | 'rejected',
    rawNote: unknown,
  ): Promise<ProposalView> {
    allow(who, 'decide');
    if (!/^\d{1,19}$/.test(proposalId)) throw notFound(`no proposal ${proposalId}`);
    const note = optionalNote(rawNote);
    const action = decision === 'approved' ? 'approve' : 'reject';
    // A ledger transaction: the approval's move is logged once the proposal's decision commits with it.
    const out = await this.d.ledger.transaction(async (tx) => {
      const c = tx.client;
      const p = await this.d.proposals.lock(c, proposalId);
      if (!p) throw notFound(`no proposal ${proposalId}`);
      const refuse = async (e: OperationsError) => {
        await this.d.actions.record(c, actionEntry(who, action, p, e.code));
        return { error: e } as const;
      };
      if (p.state !== 'open')
        return refuse(
          new OperationsError(OperationsErrorCode.ProposalDecided, `proposal ${p.id} is already ${p.state}`),
        );
      if (p.proposedBy === who.id)
        return refuse(
          new OperationsError(
            OperationsErrorCode.Forbidden,
            `proposal ${p.id} is your own: a different approver must decide it`,
          ),
        );
      if (decision === 'rejected') {
        const done = await this.d.proposals.decide(c, p.id, 'rejected', who.id, note);
        await this.d.actions.record(c, actionEntry(who, action, p, 'rejected'));
        return { proposal: done ?? p } as const;
      }
      const row = await this.d.payouts.findOne(c, p.accountId, p.transferId);
      let moved: PayoutRow | undefined;
      if (row && row.version === p.fromVersion && row.status === 'REQUIRES_ATTENTION') {
        const change: PayoutChange = {
          row,
          to: p.outcome,
          fields: { reason: OPERATOR_SETTLED_REASON, ...(p.utr ? { utr: p.utr } : {}) },
          actor: { operatorId: p.proposedBy, approverId: who.id, proposalId: p.id },
          log: { proposalId: p.id, proposedBy: p.proposedBy, approvedBy: who.id },
        };
        [moved] = await this.d.ledger.apply(tx, [change], 'operations');
      }
      if (!moved) {
        await this.d.proposals.decide(c, p.id, 'stale', who.id, note);
        return refuse(
          new OperationsError(
            OperationsErrorCode.ConcurrentChange,
            `payout ${p.transferId} moved on since the proposal (version ${p.fromVersion}); the proposal is closed as stale`,
          ),
        );
      }
      const done = await this.d.proposals.decide(c, p.id, 'approved', who.id, note);
      await this.d.actions.record(c, actionEntry(who, action, p, 'approved'));
      return { proposal: done ?? p } as const;
    });
    if ('error' in out) throw out.error;
    return proposalView(out.proposal);
  }

  private async reopen(who: Operator, row: PayoutRow): Promise<RecheckResult> {
    // Without a status endpoint (the kind table) the reconciler would only send it back here.
    if (!hasStatusCheck(row.kind, apiOf(row)))
      throw new OperationsError(
        OperationsErrorCode.NoStatusEndpoint,
        `a ${row.kind} has no status endpoint: its state cannot be checked automatically; confirm it with the provider`,
      );
    const moved = await this.d.ledger.reopen(row, OPERATOR_RECHECK_REASON, { operatorId: who.id });
    if (!moved)
      throw new OperationsError(
        OperationsErrorCode.ConcurrentChange,
        `payout ${row.transferId} changed meanwhile; look it up again`,
      );
    return { action: 'reopened', payout: payoutView(moved) };
  }

  private async find(accountId: string, transferId: string): Promise<PayoutRow> {
    const row = await this.d.payouts.findOne(this.d.pool, accountId, transferId);
    if (!row) throw notFound(`no payout ${transferId} for account ${accountId}`);
    return row;
  }

  /** Runs an action and records it (done or refused) with who asked. */
  private async recorded<T>(
    who: Operator,
    action: OperatorActionEntry['action'],
    on: Pick<OperatorActionEntry, 'payoutId' | 'accountId' | 'transferId' | 'eventId'>,
    work: () => Promise<{ value: T; result: string; proposalId?: string }>,
  ): Promise<T> {
    try {
      const r = await work();
      await this.d.actions.record(this.d.pool, {
        operatorId: who.id,
        role: who.role,
        action,
        ...on,
        result: r.result,
        proposalId: r.proposalId ?? null,
      });
      return r.value;
    } catch (e) {
      if (e instanceof OperationsError)
        await this.d.actions.record(this.d.pool, {
          operatorId: who.id,
          role: who.role,
          action,
          ...on,
          result: e.code,
        });
      throw e;
    }
  }
}

function cursorOf(r: SearchRow): Cursor {
  return r.batchId === null
    ? { createdAt: r.createdKey, id: r.key }
    : { batchId: r.batchId, position: Number(r.key) };
}

function actionEntry(
  who: Operator,
  action: 'approve' | 'reject',
  p: { id: string; payoutId: string; accountId: string; transferId: string },
  result: string,
): OperatorActionEntry {
  return {
    operatorId: who.id,
    role: who.role,
    action,
    payoutId: p.payoutId,
    accountId: p.accountId,
    transferId: p.transferId,
    proposalId: p.id,
    result,
  };
}

/** The role check of the use case itself (the HTTP edge checks first; this holds without it). */
function allow(who: Operator, action: OperatorAction): void {
  if (!roleAllows(who.role, action))
    throw new OperationsError(
      OperationsErrorCode.Forbidden,
      `operator ${who.id} (${who.role}) may not ${action === 'decide' ? 'approve or reject' : action}`,
    );
}

function invalid(message: string): OperationsError {
  return new OperationsError(OperationsErrorCode.InvalidInput, message);
}

/** Free text an operator types may still carry an account number: long digit runs are masked. */
function cleanNote(v: string): string {
  return maskDigitRuns(v.trim());
}

function optionalNote(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > MAX_NOTE)
    throw invalid(`note must be text of at most ${MAX_NOTE} characters`);
  return cleanNote(v);
}

function proposalInput(i: ProposalInput): {
  outcome: ProposedOutcome;
  utr: string | null;
  note: string;
  version: number;
} {
  if (i.outcome !== 'SUCCESS' && i.outcome !== 'FAILED') throw invalid('outcome must be SUCCESS or FAILED');
  // The state machine says where a person may settle a payout; both are allowed today.
  if (!canMove('REQUIRES_ATTENTION', i.outcome))
    throw invalid(`REQUIRES_ATTENTION cannot become ${i.outcome}`);
  if (!Number.isInteger(i.version)) throw invalid('version (the payout version you saw) is required');
  if (i.utr !== undefined && i.utr !== null && (typeof i.utr !== 'string' || !UTR.test(i.utr)))
    throw invalid('utr must be 6 to 35 letters or digits');
  const utr = typeof i.utr === 'string' ? i.utr : null;
  if (i.outcome === 'SUCCESS' && !utr) throw invalid('a SUCCESS settlement needs the UTR as evidence');
  if (typeof i.note !== 'string' || i.note.trim() === '' || i.note.length > MAX_NOTE)
    throw invalid(`note (the evidence) is required, at most ${MAX_NOTE} characters`);
  return { outcome: i.outcome, utr, note: cleanNote(i.note), version: i.version as number };
}

function notFound(message: string): OperationsError {
  return new OperationsError(OperationsErrorCode.NotFound, message);
}
