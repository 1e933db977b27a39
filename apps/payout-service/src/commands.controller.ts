import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS } from '#contracts';
import { type KafkaBatch } from '#messaging';
import { IntakeService, PayoutExecutor } from '#pipeline';

/** Transport glue only: a Kafka batch in, the intake use case, then wake the executor. */
@Controller()
export class CommandsController {
  constructor(
    @Inject(IntakeService) private readonly intake: IntakeService,
    @Inject(PayoutExecutor) private readonly executor: PayoutExecutor,
  ) {}

  @EventPattern(TOPICS.commands)
  async onCommands(@Payload() batch: KafkaBatch): Promise<void> {
    await this.intake.ingest(batch.topic, batch.partition, batch.messages);
    this.executor.wake();
  }
}
