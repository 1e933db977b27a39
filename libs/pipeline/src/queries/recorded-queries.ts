import type pg from 'pg';
import { type Query, type QueryReply, type QueryType } from '#contracts';
import { type QueryAnswerRepository, type SecretsCipher } from '#ledger';

/** What one message is answered with: the reply minus its queryId and type. */
export type Answer = Pick<QueryReply, 'ok' | 'data' | 'error' | 'generation'> & { readonly result: string };

/** The queries that change something at the provider, or mint something: done once per request id. */
export const QUERIES_WITH_SIDE_EFFECTS: ReadonlySet<QueryType> = new Set([
  'beneficiary.create',
  'beneficiary.delete',
  'query.sdk_token',
]);

/**
 * Answers that say nothing was done, or that the outcome is unclear and asking again is safe: not
 * recorded, so the same request id asked again is asked of the provider again, as the answer says.
 * `result` is the provider's outcome class (SDK token) or the beneficiary error code.
 */
const ASK_AGAIN: ReadonlySet<string> = new Set([
  'unavailable',
  'unknown',
  'config',
  'pending',
  'retry-safe',
  'auth-refresh',
  'fatal-config',
]);

export interface RecordedQueriesDeps {
  readonly pool: pg.Pool;
  readonly answers: QueryAnswerRepository;
  /** Keyed request hash and the sealing of answers (an SDK token is a secret). */
  readonly cipher: Pick<SecretsCipher, 'hash' | 'sameRequest' | 'seal' | 'open'>;
}

/**
 * Queries with side effects, done once per (account, request id): the id is claimed before the
 * provider is called and the answer recorded after, so a redelivered batch or a repeated query
 * gets the recorded answer, and the provider is not called again (issue 30, defect 3). The
 * request id is the query's `requestId`, else its `queryId`.
 */
export class RecordedQueries {
  /** In this process, one delivery of a request id at a time: a second waits, then reads the first's answer. */
  private readonly inFlight = new Map<string, Promise<Answer>>();

  constructor(private readonly d: RecordedQueriesDeps) {}

  async once(q: Query, accountId: string, requestId: string, run: () => Promise<Answer>): Promise<Answer> {
    const key = `${accountId}\u0000${requestId}`;
    const earlier = this.inFlight.get(key);
    const p = (async () => {
      await earlier?.catch(() => undefined);
      return this.claimed(q, accountId, requestId, run);
    })();
    this.inFlight.set(key, p);
    try {
      return await p;
    } finally {
      if (this.inFlight.get(key) === p) this.inFlight.delete(key);
    }
  }

  private async claimed(
    q: Query,
    accountId: string,
    requestId: string,
    run: () => Promise<Answer>,
  ): Promise<Answer> {
    const canonical = canonicalQuery(accountId, q);
    const { pool, answers, cipher } = this.d;
    const recorded = await answers.claim(pool, {
      accountId,
      requestId,
      type: q.type,
      requestHash: cipher.hash(canonical),
    });
    if (recorded) {
      if (recorded.type !== q.type || !cipher.sameRequest(recorded.requestHash, canonical)) {
        return refusal(
          'request_id_reused',
          `requestId ${requestId} was used by another request of this account: the first one stands`,
        );
      }
      if (recorded.answer === null) {
        return refusal(
          'unknown',
          'An earlier delivery of this request is under way, or was cut short: its outcome is not known here. ' +
            'Asking again with a new requestId is safe for beneficiary.create and beneficiary.delete; for an SDK token it mints another',
        );
      }
      return JSON.parse(cipher.open(recorded.answer)) as Answer;
    }
    // If this throws, nothing is known of what the call did: the claim stays, and a later delivery says so.
    const answer = await run();
    if (!answer.ok && ASK_AGAIN.has(answer.result)) {
      await answers.release(pool, accountId, requestId);
      return answer;
    }
    await answers.answer(pool, accountId, requestId, cipher.seal(JSON.stringify(answer)));
    return answer;
  }
}

function refusal(code: string, message: string): Answer {
  return { ok: false, result: code, error: { code, message } };
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** "The same request": its type, account and data, keys sorted (queryId, replyTo and requestId are not). */
export function canonicalQuery(accountId: string, q: Query): string {
  return JSON.stringify(sorted({ type: q.type, accountId, data: q.data }));
}
