import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  HttpCode,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { OperationsError, OperationsErrorCode, OperationsService } from '#operations';
import { SERVICE_CONFIG } from './infrastructure.module.js';
import { type ServiceConfig } from './service.config.js';

const digest = (v: string): Buffer => createHash('sha256').update(v).digest();

/**
 * Bearer-token check of the operations API. Both sides are hashed first, so the comparison is
 * constant-time whatever the length of what was sent. With no token configured the API does not
 * exist: 404, the same answer as any unknown path.
 */
@Injectable()
export class OpsAuthGuard implements CanActivate {
  private readonly expected: Buffer | undefined;

  constructor(@Inject(SERVICE_CONFIG) config: ServiceConfig) {
    const token = config.operations.OPS_API_TOKEN;
    this.expected = token === '' ? undefined : digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw new HttpException({ statusCode: 404, message: 'Not Found' }, 404);
    const req = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    const header = req.headers['authorization'];
    const m = typeof header === 'string' ? /^Bearer ([^\s]+)$/.exec(header) : null;
    if (!m?.[1] || !timingSafeEqual(digest(m[1]), this.expected))
      throw new HttpException({ statusCode: 401, message: 'a valid bearer token is required' }, 401);
    return true;
  }
}

/** The edge: the one place operations errors become HTTP statuses. */
function httpStatusOf(code: OperationsErrorCode): HttpStatus {
  switch (code) {
    case OperationsErrorCode.NotFound:
      return HttpStatus.NOT_FOUND;
    case OperationsErrorCode.InvalidInput:
      return HttpStatus.BAD_REQUEST;
    case OperationsErrorCode.Terminal:
    case OperationsErrorCode.NotSubmitted:
    case OperationsErrorCode.InFlight:
    case OperationsErrorCode.NoStatusEndpoint:
    case OperationsErrorCode.ConcurrentChange:
      return HttpStatus.CONFLICT;
  }
}

export async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof OperationsError) {
      const status = httpStatusOf(e.code);
      throw new HttpException({ statusCode: status, code: e.code, message: e.message }, status);
    }
    throw e;
  }
}

/** Transport glue only: decode the path, call the use case, map domain errors (also used by the other /ops controllers). */
@Controller('ops')
@UseGuards(OpsAuthGuard)
export class OpsController {
  constructor(@Inject(OperationsService) private readonly ops: OperationsService) {}

  @Get('payouts/:accountId/:transferId')
  payout(@Param('accountId') accountId: string, @Param('transferId') transferId: string) {
    return answer(() => this.ops.payout(accountId, transferId));
  }

  @Get('batches/:accountId/:batchTransferId')
  batch(@Param('accountId') accountId: string, @Param('batchTransferId') batchTransferId: string) {
    return answer(() => this.ops.batch(accountId, batchTransferId));
  }

  @Get('requires-attention')
  requiresAttention(@Query('limit') limit?: string) {
    return answer(() => this.ops.requiringAttention(limit === undefined ? 100 : Number(limit)));
  }

  @Post('payouts/:accountId/:transferId/recheck')
  @HttpCode(202)
  recheck(@Param('accountId') accountId: string, @Param('transferId') transferId: string) {
    return answer(() => this.ops.recheck(accountId, transferId));
  }

  @Post('outbox/:eventId/replay')
  @HttpCode(202)
  replay(@Param('eventId') eventId: string) {
    return answer(async () => {
      await this.ops.replayDeadEvent(eventId);
      return { replayed: eventId };
    });
  }
}
