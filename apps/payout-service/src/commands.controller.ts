import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS } from '#contracts';
import { type KafkaBatch } from '#messaging';
import { BatchSubmitWorker, IntakeService, PayoutExecutor } from '#pipeline';

/**
 * Transport glue only: a Kafka batch in, the intake use case, then wake the worker that has new
 * work (a claim that finds nothing is a transaction for nothing).
 */
@Controller()
export class CommandsController {
  constructor(
    @Inject(IntakeService) private readonly intake: IntakeService,
    @Inject(PayoutExecutor) private readonly executor: PayoutExecutor,
    @Inject(BatchSubmitWorker) private readonly batches: BatchSubmitWorker,
  ) {}

  @EventPattern(TOPICS.commands)
  async onCommands(@Payload() batch: KafkaBatch): Promise<void> {
    const messages = batch.messages.map((m, i) => ({
      key: m.key,
      value: m.value,
      offset: m.offset,
      traceparent: batch.traceparents[i],
    }));
    const r = await this.intake.ingest(batch.topic, batch.partition, messages);
    if (r.accepted > r.acceptedBatches) this.executor.wake(r.payoutAccounts);
    if (r.acceptedBatches > 0) this.batches.wake(r.batchAccounts);
  }
}
