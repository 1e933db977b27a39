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
    await this.queries.handle(batch.messages);
  }
}
