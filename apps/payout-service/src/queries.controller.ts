import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS } from '#contracts';
import { type KafkaBatch } from '#messaging';
import { QueryService } from '#pipeline';

@Controller()
export class QueriesController {
  constructor(@Inject(QueryService) private readonly queries: QueryService) {}

  @EventPattern(TOPICS.queries)
  async onQueries(@Payload() batch: KafkaBatch): Promise<void> {
    // Each reply carries its query's trace (a header), as each payout carries its command's.
    await this.queries.handle(
      batch.topic,
      batch.partition,
      batch.messages.map((m, i) => ({
        key: m.key,
        value: m.value,
        offset: m.offset,
        traceparent: batch.traceparents[i],
      })),
    );
  }
}
