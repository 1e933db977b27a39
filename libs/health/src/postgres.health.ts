import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type pg from 'pg';
import { PG_POOL } from '#database';

@Injectable()
export class PostgresHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(PG_POOL) private readonly pool: pg.Pool,
  ) {}

  check(key = 'postgres', timeoutMs = 2_000) {
    return this.health
      .check(key)
      .attempt(async () => {
        await this.pool.query('SELECT 1');
      })
      .withTimeout(timeoutMs);
  }
}
