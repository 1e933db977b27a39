import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { DeadLetterListing } from '#operations';
import { answer, OpsAuthGuard } from './ops.controller.js';

const DEFAULT_PAGE = 50;

/** What is stuck, for a person: dead letters of commands and dead outbox rows, newest first, paged. */
@Controller('ops')
@UseGuards(OpsAuthGuard)
export class OpsDeadLettersController {
  constructor(@Inject(DeadLetterListing) private readonly listing: DeadLetterListing) {}

  @Get('dead-letters')
  deadLetters(@Query('cursor') cursor?: string, @Query('limit') limit?: string) {
    return answer(() => this.listing.commands(cursor, limit === undefined ? DEFAULT_PAGE : Number(limit)));
  }

  @Get('outbox/dead')
  deadOutboxRows(@Query('cursor') cursor?: string, @Query('limit') limit?: string) {
    return answer(() => this.listing.outboxRows(cursor, limit === undefined ? DEFAULT_PAGE : Number(limit)));
  }
}
