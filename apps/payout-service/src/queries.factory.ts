import { type Kafka } from 'kafkajs';
import { BeneHistoryRepository, DeadLetterRepository, QueryAnswerRepository } from '#ledger';
import { PRODUCER_SETTINGS, ReconnectingProducer } from '#messaging';
import { LedgerBeneHistory, QueryService } from '#pipeline';

/**
 * A query reply's send: about 3 s of retries, fewer than the other producers. A reply topic that
 * does not exist (a requester's mistake) fails in seconds and is dead-lettered, instead of holding
 * the partition ~20 s; a broker outage fails the dead letter too, and the batch is redelivered.
 */
const REPLY_RETRY = { initialRetryTime: 200, retries: 4, maxRetryTime: 1_000 };

type Given = Omit<
  ConstructorParameters<typeof QueryService>[0],
  'producer' | 'ledgerHistory' | 'answers' | 'deadLetters'
>;

/**
 * The queries role (request/reply on `payouts.queries`): its own reply producer, the beneficiary
 * history read from the ledger, and the recorded answers of queries with side effects (issue 30).
 */
export function createQueries({ kafka, ...given }: Given & { kafka: Kafka }): QueryService {
  return new QueryService({
    ...given,
    producer: new ReconnectingProducer(kafka, { ...PRODUCER_SETTINGS, retry: REPLY_RETRY }),
    ledgerHistory: new LedgerBeneHistory(given.pool, new BeneHistoryRepository()),
    answers: new QueryAnswerRepository(),
    deadLetters: new DeadLetterRepository(),
  });
}
