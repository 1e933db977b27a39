import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { type Admin, type Kafka } from 'kafkajs';
import { KAFKA } from '#messaging';

/**
 * Kafka is ready when a broker answers a metadata request. The admin client is kept between
 * checks and replaced after a failure, so a broker that comes back is seen on the next check.
 */
@Injectable()
export class KafkaHealthIndicator implements OnModuleDestroy {
  private admin: Admin | undefined;

  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(KAFKA) private readonly kafka: Kafka,
  ) {}

  check(key = 'kafka', timeoutMs = 3_000) {
    return this.health
      .check(key)
      .attempt(async () => {
        try {
          const admin = await this.connectedAdmin();
          const cluster = await admin.describeCluster();
          return { brokers: cluster.brokers.length };
        } catch (e) {
          await this.dropAdmin();
          throw e;
        }
      })
      .withTimeout(timeoutMs);
  }

  private async connectedAdmin(): Promise<Admin> {
    if (this.admin) return this.admin;
    const admin = this.kafka.admin({ retry: { retries: 0 } });
    await admin.connect();
    this.admin = admin;
    return admin;
  }

  private async dropAdmin(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    await admin?.disconnect().catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    await this.dropAdmin();
  }
}
