import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  Inject,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import {
  DecideApproval,
  GetApproval,
  ListApprovals,
  type Operator,
  parseDecideApproval,
  parseListApprovals,
} from '#operations';
import { answer, Needs, OpsAuthGuard, Who } from './ops.controller.js';

type Subject = 'payout' | 'batch';
function subjectOf(kind: string): Subject {
  if (kind === 'payouts') return 'payout';
  if (kind === 'batches') return 'batch';
  throw new HttpException({ statusCode: 404, message: 'Not Found' }, 404);
}

/**
 * Approval before sending (issue 30): payouts and batches the account's policy holds, and a
 * person's approval or rejection of one (a whole batch at once). Transport glue only, as OpsController.
 */
@Controller('ops/approvals')
@UseGuards(OpsAuthGuard)
export class ApprovalsController {
  constructor(
    @Inject(ListApprovals) private readonly list: ListApprovals,
    @Inject(GetApproval) private readonly get: GetApproval,
    @Inject(DecideApproval) private readonly decide: DecideApproval,
  ) {}

  /** Waiting for approval, oldest first (`?accountId=`, `?limit=`, `?after=`). */
  @Get()
  waiting(@Query() q: Record<string, unknown>) {
    return answer(() => this.list.execute(parseListApprovals(q)));
  }

  /** The latest hold of a payout (`payouts`) or batch (`batches`), with every decision on it. */
  @Get(':kind/:accountId/:transferId')
  one(
    @Param('kind') kind: string,
    @Param('accountId') accountId: string,
    @Param('transferId') transferId: string,
  ) {
    const subject = subjectOf(kind);
    return answer(() => this.get.execute({ subject, accountId, transferId }));
  }

  @Post(':kind/:accountId/:transferId/approve')
  @Needs('approve_payout')
  @HttpCode(200)
  approve(
    @Who() who: Operator,
    @Param('kind') kind: string,
    @Param('accountId') accountId: string,
    @Param('transferId') transferId: string,
    @Body() body: unknown,
  ) {
    const ref = { subject: subjectOf(kind), accountId, transferId, decision: 'approve' as const };
    return answer(() => this.decide.execute(who, parseDecideApproval(ref, body)));
  }

  @Post(':kind/:accountId/:transferId/reject')
  @Needs('approve_payout')
  @HttpCode(200)
  reject(
    @Who() who: Operator,
    @Param('kind') kind: string,
    @Param('accountId') accountId: string,
    @Param('transferId') transferId: string,
    @Body() body: unknown,
  ) {
    const ref = { subject: subjectOf(kind), accountId, transferId, decision: 'reject' as const };
    return answer(() => this.decide.execute(who, parseDecideApproval(ref, body)));
  }
}
