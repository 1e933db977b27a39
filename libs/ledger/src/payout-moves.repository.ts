import { fromPaise } from './money.js';
import { qualify } from './sql.js';
import { type PayoutStatus } from '#contracts';
import {
  type NewPayout,
  type OutcomeFields,
  type PayoutRow,
  type ReversalWatchSettings,
} from './ledger.types.js';
import { type HistoryCause, type OperatorActor } from './history.repository.js';
import { COLUMNS, type Db, type RawPayout, toRow } from './payout-row.js';
import { type FundsClaimFacts, type FundsGuard, type FundsSendResult } from './funds-claim.js';
import {
  FUNDS_BOUND,
  fundsFacts,
  FUNDS_GUARDED,
  fundsCounted,
  fundsGuard,
  type FundsFactsRead,
  guardedSend,
  inOrderOf,
  type RawFundsFacts,
  type RawGuardedSend,
  toFundsFacts,
  toFundsGuard,
} from './funds-claim.repository.js';

/**
 * The candidates of a funds round (PayoutMoves.fundsRound), after its `facts` CTE: the first $2
 * held and the first $2 new payouts of account $1, each through its partial index, merged oldest
 * first, each row with the facts (one row of facts alone when none waits).
 */
const PAYOUT_FUNDS_CANDIDATES = `held AS (
         SELECT id, version, status, transfer_id, check_count, amount, held_since, created_at FROM payout
          WHERE status = 'HELD_FOR_FUNDS' AND account_id = $1 ORDER BY created_at LIMIT $2
       ), fresh AS (
         SELECT id, version, status, transfer_id, check_count, amount, held_since, created_at FROM payout
          WHERE status = 'RECEIVED' AND account_id = $1 ORDER BY created_at LIMIT $2
       )
       SELECT f.*, c.id, c.version, c.status, c.transfer_id, c.check_count, c.amount, c.held_since
         FROM facts f LEFT JOIN (SELECT * FROM held UNION ALL SELECT * FROM fresh) AS c ON true
        ORDER BY c.created_at, c.id`;

/**
 * A waiting payout of a held account as a funds round reads it: what the rule and the moves need,
 * not the whole row (the sent ones come back whole from the send).
 */
export interface FundsCandidateRow {
  readonly row: Pick<PayoutRow, 'id' | 'version' | 'status' | 'transferId' | 'checkCount' | 'amount'>;
  /** When it was first held (null: never). */
  readonly heldSince: Date | null;
}

export interface TransitionMove {
  readonly id: string;
  readonly fromVersion: number;
  /** The status the caller saw (at `fromVersion`): the history row's `from`. */
  readonly fromStatus: PayoutStatus;
  readonly to: PayoutStatus;
  readonly fields: OutcomeFields;
  readonly eraseSecrets: boolean;
  /** The person behind an operator's change (cause `operator`), for the history row. */
  readonly actor?: OperatorActor;
}

/**
 * The history row of each payout a statement changed, written by that same statement (ADR 0016):
 * the change and its history are one round trip, and a change without its row cannot commit.
 * `$from`, `$cause` and the actor columns are SQL expressions over the changed rows (`ch`).
 */
export function historyOf(
  from: string,
  cause: string,
  actor = 'NULL::text, NULL::text, NULL::bigint',
): string {
  return `INSERT INTO state_history (subject, subject_id, account_id, transfer_id, from_status, to_status, version,
                                     cause, reason, status_code, reference_id, utr, operator_id, approver_id, proposal_id)
             SELECT 'payout', ch.id, ch.account_id, ch.transfer_id, ${from}, ch.status, ch.version, ${cause},
                    ch.reason, ch.status_code, ch.reference_id, ch.utr, ${actor}
               FROM changed ch`;
}

/**
 * Every statement that changes a payout's state (status and version): the ledger's own, and only
 * its (ADR 0003, amendment): libs/ledger/src/index.ts does not export this module, and the
 * architecture check refuses an import of it from outside the ledger (tests may, as fixtures).
 * Reads and scheduling stay in PayoutRepository.
 */
export class PayoutMoves {
  constructor(
    private readonly settings: ReversalWatchSettings = {
      reversalWatchFirstMs: null,
      reversalWatchKinds: [],
    },
  ) {}

  /**
   * insertNew: one statement for a whole Kafka batch; existing identities are left untouched. Each
   * payout first takes its (account, transferId) in `transfer_identity`, the one namespace single
   * payouts and batch entries share (issue 29); one whose id is held already (by this payout, or
   * by a batch entry) is not inserted, and the caller finds out why.
   */
  async insertNew(db: Db, rows: readonly NewPayout[]): Promise<PayoutRow[]> {
    if (rows.length === 0) return [];
    const { rows: out } = await db.query<RawPayout>({
      name: 'payout.insertNew',
      text: /* sql: payout.insertNew */ `WITH input AS (
         SELECT * FROM ROWS FROM (unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), unnest($4::text[]),
                           jsonb_array_elements($5::jsonb), jsonb_array_elements($6::jsonb), unnest($7::numeric[]),
                           unnest($8::text[]), unnest($9::text[]), unnest($10::text[]))
                AS r(account_id, transfer_id, kind, request_hash, request, request_secrets, amount, request_id,
                     traceparent, provider_api)
       ), claimed AS (
         INSERT INTO transfer_identity (account_id, transfer_id)
         SELECT account_id, transfer_id FROM input ORDER BY account_id, transfer_id
         ON CONFLICT DO NOTHING
         RETURNING account_id, transfer_id
       ), changed AS (
         INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, request_secrets, amount, request_id, traceparent, provider_api)
         SELECT i.account_id, i.transfer_id, i.kind, i.request_hash, i.request, NULLIF(i.request_secrets, 'null'::jsonb),
                i.amount, i.request_id, i.traceparent, i.provider_api
           FROM input i JOIN claimed c ON c.account_id = i.account_id AND c.transfer_id = i.transfer_id
         ON CONFLICT (account_id, transfer_id) DO NOTHING
         RETURNING ${COLUMNS}
       ), history AS (${historyOf('NULL::text', "'intake'")})
       SELECT ${COLUMNS} FROM changed`,
      values: [
        rows.map((r) => r.accountId),
        rows.map((r) => r.transferId),
        rows.map((r) => r.kind),
        rows.map((r) => r.requestHash),
        // One JSON array each, not jsonb[] elements pg would escape one quote at a time (see
        // OutboxRepository.enqueue); a payout without secrets is a JSON null, stored as NULL.
        JSON.stringify(rows.map((r) => r.request)),
        JSON.stringify(rows.map((r) => r.requestSecrets ?? null)),
        rows.map((r) => r.amount),
        rows.map((r) => r.requestId),
        rows.map((r) => r.traceparent ?? null),
        rows.map((r) => r.providerApi ?? 'v1'),
      ],
    });
    return out.map(toRow);
  }

  /**
   * claimForSubmission: takes up to `limit` RECEIVED rows no other worker holds, marks them
   * SUBMITTING with a lease and a new attempt, in the caller's transaction. The attempt is
   * recorded before the provider is called, so a crash leaves a SUBMITTING row to recover.
   *
   * The limit is a subquery so the planner never sees its value: it then plans for the first rows
   * of payout_received_idx in order. With the value, on a table without statistics (a fresh
   * database, a burst after autovacuum saw it empty) it estimated fewer RECEIVED rows than the
   * limit and sorted the whole backlog (issue 23; test/ledger/plans-without-statistics.int-spec.ts).
   */
  async claimForSubmission(
    db: Db,
    owner: string,
    leaseMs: number,
    limit: number,
    exceptAccounts: readonly string[] = [],
  ): Promise<PayoutRow[]> {
    if (exceptAccounts.length > 0) {
      // The claim of the accounts not in FUNDS_HOLD (ADR 0027): today's claim but for the held
      // accounts, whose payouts only the funds-aware claim sends. A statement of its own, so with
      // holding off the claim is today's, byte for byte.
      const { rows } = await db.query<RawPayout>({
        name: 'payout.claimForSubmission.exceptHeld',
        text: /* sql: payout.claimForSubmission.exceptHeld */ `WITH changed AS (
           UPDATE payout p
              SET status = 'SUBMITTING', version = p.version + 1, attempt = p.attempt + 1, last_error = NULL,
                  lease_owner = $1, lease_until = now() + make_interval(secs => $2::double precision / 1000),
                  next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
            WHERE p.id IN (SELECT id FROM payout WHERE status = 'RECEIVED' AND account_id <> ALL($4::text[])
                            ORDER BY created_at LIMIT (SELECT $3::int) FOR UPDATE SKIP LOCKED)
            RETURNING ${qualify(COLUMNS, 'p')}
         ), history AS (${historyOf("'RECEIVED'", "'executor'")})
         SELECT ${COLUMNS} FROM changed`,
        values: [owner, leaseMs, limit, exceptAccounts],
      });
      return rows.map(toRow);
    }
    const { rows } = await db.query<RawPayout>({
      name: 'payout.claimForSubmission',
      text: /* sql: payout.claimForSubmission */ `WITH changed AS (
         UPDATE payout p
            SET status = 'SUBMITTING', version = p.version + 1, attempt = p.attempt + 1, last_error = NULL,
                lease_owner = $1, lease_until = now() + make_interval(secs => $2::double precision / 1000),
                next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
          WHERE p.id IN (SELECT id FROM payout WHERE status = 'RECEIVED'
                          ORDER BY created_at LIMIT (SELECT $3::int) FOR UPDATE SKIP LOCKED)
          RETURNING ${qualify(COLUMNS, 'p')}
       ), history AS (${historyOf("'RECEIVED'", "'executor'")})
       SELECT ${COLUMNS} FROM changed`,
      values: [owner, leaseMs, limit],
    });
    return rows.map(toRow);
  }

  /**
   * The held-for-funds payouts of accounts no longer in FUNDS_HOLD (ADR 0027, holding turned off
   * for an account): up to `limit`, oldest first, through payout_held_for_funds_idx, sent as
   * today's claim sends (HELD_FOR_FUNDS to SUBMITTING, lease, a new attempt; the hold's reason
   * cleared; no `sent_at`: the account is not held, the provider decides). `heldAccounts`: the
   * accounts still held (their rows are the funds-aware claim's). A statement of its own, run at
   * start and at most once per idle poll, so the claim stays today's.
   */
  async claimHeldOfUnheld(
    db: Db,
    owner: string,
    leaseMs: number,
    limit: number,
    heldAccounts: readonly string[],
  ): Promise<PayoutRow[]> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.claimHeldOfUnheld */ `WITH changed AS (
         UPDATE payout p
            SET status = 'SUBMITTING', version = p.version + 1, attempt = p.attempt + 1, last_error = NULL,
                lease_owner = $1, lease_until = now() + make_interval(secs => $2::double precision / 1000),
                next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now(),
                reason = NULL
          WHERE p.id IN (SELECT id FROM payout WHERE status = 'HELD_FOR_FUNDS' AND account_id <> ALL($4::text[])
                          ORDER BY created_at LIMIT (SELECT $3::int) FOR UPDATE SKIP LOCKED)
          RETURNING ${qualify(COLUMNS, 'p')}
       ), history AS (${historyOf("'HELD_FOR_FUNDS'", "'executor'")})
       SELECT ${COLUMNS} FROM changed`,
      [owner, leaseMs, limit, heldAccounts],
    );
    return rows.map(toRow);
  }

  /**
   * A funds round's read (ADR 0027), one statement, in the caller's transaction: the reading row's
   * guard (what the round's send checks), the facts
   * (`how`: the bound from the reading's row, FUNDS_BOUND, facts null when the reading has none;
   * or the exact sum, fundsFacts, counting `feePaise` per transfer) and the first waiting payouts of the account (RECEIVED and HELD_FOR_FUNDS),
   * oldest first, at most `limit` of each status, each through its own partial index (held:
   * payout_held_for_funds_idx; new: payout_received_account_idx), then merged in order. Each status has
   * its own limit so that new payouts are decided (held, with their event and `held_since`) even
   * behind a full window of held ones: they do not wait RECEIVED, where the other accounts' claim
   * would step over them. Light rows and no row locks: the send's guard keeps rounds from spending
   * the same room, and every move is from the version read here, so a concurrent move (an
   * operator's cancel) wins and the round's move of that row is dropped.
   */
  async fundsRound(
    db: Db,
    accountId: string,
    limit: number,
    how: FundsFactsRead,
    feePaise: bigint,
  ): Promise<{ facts: FundsClaimFacts | null; candidates: FundsCandidateRow[]; guard: FundsGuard | null }> {
    type Raw = RawFundsFacts & {
      id: string | null;
      version: number;
      status: PayoutStatus;
      transfer_id: string;
      check_count: number;
      amount: string;
      held_since: Date | null;
    };
    const { rows } =
      how === 'bound'
        ? await db.query<Raw>({
            name: 'payout.fundsRound.bound',
            text: /* sql: payout.fundsRound.bound */ `WITH facts AS MATERIALIZED (${FUNDS_BOUND}), ${PAYOUT_FUNDS_CANDIDATES}`,
            values: [accountId, limit],
          })
        : await db.query<Raw>({
            name: 'payout.fundsRound',
            text: /* sql: payout.fundsRound */ `WITH facts AS MATERIALIZED (${fundsFacts('$3')}), ${PAYOUT_FUNDS_CANDIDATES}`,
            values: [accountId, limit, fromPaise(feePaise)],
          });
    const first = rows[0];
    if (!first) throw new Error('the funds round read no facts');
    return {
      facts: toFundsFacts(first),
      guard: toFundsGuard(first),
      candidates: rows.flatMap((r) =>
        r.id === null
          ? []
          : [
              {
                row: {
                  id: r.id,
                  version: r.version,
                  status: r.status,
                  transferId: r.transfer_id,
                  checkCount: r.check_count,
                  amount: r.amount,
                },
                heldSince: r.held_since,
              },
            ],
      ),
    };
  }

  /**
   * The funds-aware claim's send (ADR 0027): RECEIVED or HELD_FOR_FUNDS to SUBMITTING exactly as
   * the claim does (lease, a new attempt, due after the lease), from the version the caller read,
   * with `sent_at` (when the sending started: what the next balance reading may not yet show; the
   * statement's start, one time for all it sends, not the transaction's: a round that read again
   * after another round's send sends after that send, however early its transaction began). A
   * held payout's hold reason is cleared: it is on its way. Only while the account's reading row
   * is as the round read it (`guard`: fundsGuard locks it and checks it first; `guarded` false:
   * it changed, nothing moved); what is sent is added to its `sent_total` in the same statement
   * (the bound a round reads first: FUNDS_BOUND), so a round that read the row before this send
   * finds it changed.
   */
  async sendFunded(
    db: Db,
    accountId: string,
    owner: string,
    leaseMs: number,
    from: ReadonlyArray<Pick<PayoutRow, 'id' | 'version' | 'status'>>,
    guard: FundsGuard,
    feePaise: bigint,
  ): Promise<FundsSendResult<PayoutRow>> {
    if (from.length === 0) return { guarded: true, rows: [], sentTotal: null };
    const { rows } = await db.query<RawPayout & RawGuardedSend>(
      /* sql: payout.sendFunded */ `WITH ${fundsGuard('$6', '$7', '$8')}, changed AS (
         UPDATE payout p
            SET status = 'SUBMITTING', version = p.version + 1, attempt = p.attempt + 1, last_error = NULL,
                lease_owner = $1, lease_until = now() + make_interval(secs => $2::double precision / 1000),
                next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now(),
                sent_at = statement_timestamp(), reason = CASE WHEN p.status = 'HELD_FOR_FUNDS' THEN NULL ELSE p.reason END
           FROM unnest($3::bigint[], $4::int[], $5::text[]) AS m(id, from_version, from_status)
          WHERE p.id = ANY($3::bigint[]) AND p.id = m.id AND p.version = m.from_version
                AND p.status IN ('RECEIVED', 'HELD_FOR_FUNDS') AND EXISTS (SELECT 1 FROM guard)
          RETURNING ${qualify(COLUMNS, 'p')}, m.from_status AS h_from
       ), history AS (${historyOf('ch.h_from', "'executor'")}), ${fundsCounted('payout', '$6', '$9')}
       SELECT g.*, c.* FROM ${FUNDS_GUARDED} g LEFT JOIN (SELECT ${COLUMNS} FROM changed) c ON true`,
      [
        owner,
        leaseMs,
        from.map((r) => r.id),
        from.map((r) => r.version),
        from.map((r) => r.status),
        accountId,
        guard.sentTotal,
        guard.readAt,
        fromPaise(feePaise),
      ],
    );
    return guardedSend(rows, (r) => inOrderOf(from, r.map(toRow)));
  }

  /**
   * The fast path of a funds round (ADR 0027, FundsClaimRound.room): the oldest new (RECEIVED)
   * payouts of the account, at most `slots`, to SUBMITTING as sendFunded moves them, in one
   * statement, only when all of these hold: the account's reading row is as the round remembers it
   * (`guard`, locked and checked first), no payout of the account is HELD_FOR_FUNDS (they come
   * first, and the full way decides them), and the running total of the first `slots` of them
   * (oldest first) is within `room` (rupees, the rule's room of the remembered facts). Otherwise
   * nothing moves and the caller goes the full way. `waiting`: how many new payouts it found, up to
   * `slots + 1` (more than `slots`: more wait). The candidates are read through
   * payout_received_account_idx without row locks; a payout that moved meanwhile (an operator's
   * cancel) is not sent (the update checks its status), and `sent_total` adds only what moved.
   */
  async sendWithin(
    db: Db,
    accountId: string,
    owner: string,
    leaseMs: number,
    slots: number,
    room: string,
    guard: FundsGuard,
    feePaise: bigint,
  ): Promise<FundsSendResult<PayoutRow> & { clear: boolean; fits: boolean; waiting: number }> {
    const { rows } = await db.query<
      RawPayout & RawGuardedSend & { f_clear: boolean; f_fits: boolean; f_waiting: number }
    >({
      name: 'payout.sendWithin',
      text: /* sql: payout.sendWithin */ `WITH ${fundsGuard('$5', '$6', '$7')}, clear AS (
         SELECT NOT EXISTS (SELECT 1 FROM payout WHERE status = 'HELD_FOR_FUNDS' AND account_id = $5) AS ok
       ), waiting AS (
         SELECT id, sum(amount + $8::numeric) OVER (ORDER BY created_at, id) AS run,
                row_number() OVER (ORDER BY created_at, id) AS n
           FROM (SELECT id, amount, created_at FROM payout
                  WHERE status = 'RECEIVED' AND account_id = $5 ORDER BY created_at LIMIT $3::int + 1) w
       ), verdict AS (
         SELECT (SELECT ok FROM clear) AND EXISTS (SELECT 1 FROM guard)
                AND COALESCE((SELECT max(run) FROM waiting WHERE n <= $3::int), 0) <= $4::numeric AS fits,
                (SELECT count(*)::int FROM waiting) AS waiting
       ), changed AS (
         UPDATE payout p
            SET status = 'SUBMITTING', version = p.version + 1, attempt = p.attempt + 1, last_error = NULL,
                lease_owner = $1, lease_until = now() + make_interval(secs => $2::double precision / 1000),
                next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now(),
                sent_at = statement_timestamp()
          WHERE p.id IN (SELECT id FROM waiting WHERE n <= $3::int) AND p.status = 'RECEIVED'
                AND (SELECT fits FROM verdict)
          RETURNING ${qualify(COLUMNS, 'p')}
       ), history AS (${historyOf("'RECEIVED'", "'executor'")}), ${fundsCounted('payout', '$5', '$8')}
       SELECT g.*, (SELECT ok FROM clear) AS f_clear, v.fits AS f_fits, v.waiting AS f_waiting, c.*
         FROM ${FUNDS_GUARDED} g CROSS JOIN verdict v LEFT JOIN (SELECT ${COLUMNS} FROM changed) c ON true
        ORDER BY c.created_at, c.id`,
      values: [owner, leaseMs, slots, room, accountId, guard.sentTotal, guard.readAt, fromPaise(feePaise)],
    });
    const first = rows[0];
    if (!first) throw new Error('the fast funds send returned no row');
    return {
      ...guardedSend(rows, (r) => r.map(toRow)),
      clear: first.f_clear,
      fits: first.f_fits,
      waiting: first.f_waiting,
    };
  }

  /**
   * transition: moves a row from the version the caller saw. Returns undefined when the row has
   * moved on meanwhile (another worker, a newer poll): the caller counts it and drops its result.
   * A row entering SUCCESS of a watched kind gets its first reversal check scheduled and its
   * check count restarted (the watch has its own schedule).
   */
  async transition(
    db: Db,
    row: Pick<PayoutRow, 'id' | 'version' | 'status'>,
    to: PayoutStatus,
    f: OutcomeFields,
    eraseSecrets: boolean,
    cause: HistoryCause = 'reconciler',
  ): Promise<PayoutRow | undefined> {
    const [moved] = await this.transitionMany(
      db,
      [{ id: row.id, fromVersion: row.version, fromStatus: row.status, to, fields: f, eraseSecrets }],
      cause,
    );
    return moved;
  }

  /**
   * transitionMany: many moves in one statement, each from the version its caller saw, with their
   * history rows (`cause`; an operator's moves carry their actor). Rows that moved on meanwhile
   * are simply not returned, and get no history row.
   */
  async transitionMany(db: Db, moves: readonly TransitionMove[], cause: HistoryCause): Promise<PayoutRow[]> {
    if (moves.length === 0) return [];
    const { rows } = await db.query<RawPayout>({
      name: 'payout.transitionMany',
      text: /* sql: payout.transitionMany */ `WITH changed AS (
         UPDATE payout p
            SET status = m.status, version = p.version + 1, updated_at = now(),
                status_code = COALESCE(m.status_code, p.status_code), reason = COALESCE(m.reason, p.reason),
                reference_id = COALESCE(m.reference_id, p.reference_id),
                svc_transfer_id = COALESCE(m.svc_transfer_id, p.svc_transfer_id),
                utr = COALESCE(m.utr, p.utr), last_error = m.last_error,
                next_check_at = CASE
                  WHEN m.status = 'SUCCESS' AND p.status <> 'SUCCESS' AND m.next_check_at IS NULL
                       AND $12::double precision IS NOT NULL AND p.kind = ANY($13::text[])
                  THEN now() + make_interval(secs => $12::double precision / 1000)
                  -- The failed watch (ADR 0018): every negative state of a sent payout the
                  -- provider can be asked about, whoever wrote it. Only negative states: the
                  -- happy path writes nothing more.
                  WHEN m.status IN ('FAILED', 'REJECTED', 'REVERSED') AND p.status <> m.status
                       AND m.next_check_at IS NULL AND p.attempt > 0
                       AND $19::double precision IS NOT NULL AND p.kind = ANY($20::text[])
                  THEN now() + make_interval(secs => $19::double precision / 1000)
                  ELSE m.next_check_at END,
                maybe_reached = p.maybe_reached OR m.maybe_reached,
                resend_refused_at = CASE WHEN m.resend_refused AND p.resend_refused_at IS NULL THEN now()
                                         ELSE p.resend_refused_at END,
                -- Each state gets the whole reconcile schedule; staying in a state (a re-send after
                -- "not processed") keeps counting, so re-sends are bounded too. A new provider
                -- sub-state (issue 29) is a new wait with its own schedule.
                check_count = CASE WHEN (m.status <> p.status
                                         OR (m.set_sub_state AND m.sub_state IS DISTINCT FROM p.sub_state))
                                        AND m.status <> 'REQUIRES_ATTENTION' THEN 0
                                   ELSE p.check_count END,
                request_secrets = CASE WHEN m.erase THEN NULL ELSE p.request_secrets END,
                -- The provider's sub-state (issue 29): given, it is set; not given, kept; a settled
                -- payout waits nowhere.
                sub_state = CASE WHEN m.status IN ('SUCCESS', 'FAILED', 'REJECTED', 'REVERSED') THEN NULL
                                 WHEN m.set_sub_state THEN m.sub_state ELSE p.sub_state END,
                lease_owner = NULL, lease_until = NULL,
                -- Held for funds (ADR 0027): since its first hold, kept after it leaves.
                held_since = CASE WHEN m.status = 'HELD_FOR_FUNDS' THEN COALESCE(p.held_since, now())
                                  ELSE p.held_since END,
                -- The provider's first answer that it took the money (ADR 0027), for the payouts
                -- the funds-aware claim sent only: a reading asked after it includes the payout.
                taken_at = CASE WHEN m.status IN ('PENDING', 'SUCCESS') AND p.sent_at IS NOT NULL
                                     AND p.taken_at IS NULL THEN now()
                                ELSE p.taken_at END,
                -- The provider's fee (issue 32): written with a move into SUCCESS or REVERSED when
                -- the answer says it (money moved or returned); else kept, as batch entries do.
                fee_charge = CASE WHEN m.status IN ('SUCCESS', 'REVERSED') AND m.fee_charge IS NOT NULL
                                  THEN m.fee_charge ELSE p.fee_charge END,
                fee_tax = CASE WHEN m.status IN ('SUCCESS', 'REVERSED') AND m.fee_charge IS NOT NULL
                               THEN m.fee_tax ELSE p.fee_tax END
           FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::text[], $9::jsonb[], $10::timestamptz[], $11::boolean[],
                       $14::text[], $15::text[], $16::text[], $17::bigint[], $21::boolean[], $22::boolean[],
                       $23::boolean[], $24::text[], $25::numeric[], $26::numeric[])
                AS m(id, from_version, status, status_code, reason, reference_id, svc_transfer_id, utr,
                     last_error, next_check_at, erase, from_status, operator_id, approver_id, proposal_id,
                     maybe_reached, resend_refused, set_sub_state, sub_state, fee_charge, fee_tax)
          WHERE p.id = m.id AND p.version = m.from_version
          RETURNING ${qualify(COLUMNS, 'p')}, m.from_status AS h_from, m.operator_id AS h_operator,
                    m.approver_id AS h_approver, m.proposal_id AS h_proposal
       ), history AS (${historyOf('ch.h_from', '$18::text', 'ch.h_operator, ch.h_approver, ch.h_proposal')})
       SELECT ${COLUMNS} FROM changed`,
      values: [
        moves.map((m) => m.id),
        moves.map((m) => m.fromVersion),
        moves.map((m) => m.to),
        moves.map((m) => m.fields.statusCode ?? null),
        moves.map((m) => m.fields.reason ?? null),
        moves.map((m) => m.fields.referenceId ?? null),
        moves.map((m) => m.fields.svcTransferId ?? null),
        moves.map((m) => m.fields.utr ?? null),
        moves.map((m) => (m.fields.lastError ? JSON.stringify(m.fields.lastError) : null)),
        moves.map((m) => m.fields.nextCheckAt ?? null),
        moves.map((m) => m.eraseSecrets),
        this.settings.reversalWatchFirstMs,
        this.settings.reversalWatchKinds,
        moves.map((m) => m.fromStatus),
        moves.map((m) => m.actor?.operatorId ?? null),
        moves.map((m) => m.actor?.approverId ?? null),
        moves.map((m) => m.actor?.proposalId ?? null),
        cause,
        this.settings.failedWatchFirstMs ?? null,
        this.settings.failedWatchKinds ?? [],
        moves.map((m) => m.fields.maybeReached === true),
        moves.map((m) => m.fields.resendRefused === true),
        moves.map((m) => m.fields.subState !== undefined),
        moves.map((m) => m.fields.subState ?? null),
        moves.map((m) => m.fields.fee?.charge ?? null),
        moves.map((m) => m.fields.fee?.tax ?? null),
      ],
    });
    return rows.map(toRow);
  }

  /**
   * markResent: a re-send of the same transferId is a new attempt of the same payout. The attempt
   * it follows may have reached the provider unless it was recorded as certainly not processed
   * (`processed: false` on a SUBMITTING row): a crash mid-call, an UNKNOWN or a lost answer marks
   * the row `maybe_reached` here, so a refusal of this re-send is never read as a first refusal.
   */
  async markResent(db: Db, id: string, version: number): Promise<PayoutRow | undefined> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.markResent */ `UPDATE payout SET status = 'SUBMITTING', version = version + 1, attempt = attempt + 1, last_error = NULL,
              updated_at = now(),
              maybe_reached = maybe_reached
                OR NOT (status = 'SUBMITTING' AND COALESCE(last_error->>'processed' = 'false', false))
        WHERE id = $1 AND version = $2 AND status IN ('SUBMITTING', 'UNKNOWN')
        RETURNING ${COLUMNS}`,
      [id, version],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * reopenForRecheck: REQUIRES_ATTENTION back to UNKNOWN (a real transition: version bump, the
   * caller writes its event), due now, with a fresh reconciliation schedule. UNKNOWN is the state
   * in which the reconciler only asks for the status; whether it may re-send stays its decision.
   * `reopened_at` marks it for good: the automatic "not received" FAILED is never applied to a
   * payout a person (or a webhook) took out of REQUIRES_ATTENTION (four eyes, ADR 0018).
   */
  async reopenForRecheck(
    db: Db,
    id: string,
    fromVersion: number,
    reason: string,
  ): Promise<PayoutRow | undefined> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.reopenForRecheck */ `UPDATE payout SET status = 'UNKNOWN', version = version + 1, reason = $3, next_check_at = now(),
              check_count = 0, lease_owner = NULL, lease_until = NULL, updated_at = now(), reopened_at = now()
        WHERE id = $1 AND version = $2 AND status = 'REQUIRES_ATTENTION'
        RETURNING ${COLUMNS}`,
      [id, fromVersion, reason],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }
}
