import { Readable } from 'node:stream';
import {
  Body,
  type CanActivate,
  Controller,
  Delete,
  createParamDecorator,
  type ExecutionContext,
  Get,
  HttpCode,
  HttpException,
  Inject,
  Injectable,
  Param,
  Post,
  Query,
  Res,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type FastifyReply } from 'fastify';
import {
  AcknowledgeContradiction,
  ACTION_ROLE,
  ApproveProposal,
  BatchTimeline,
  ConsoleSessions,
  CreateBeneficiary,
  csvHeader,
  csvLine,
  ExportPayouts,
  GetBatch,
  GetBeneficiary,
  GetPayout,
  ListDeadLetters,
  ListDeadOutboxRows,
  ListProposals,
  ListRequiringAttention,
  opsOpenApi,
  type Operator,
  type OperatorAction,
  OperationsError,
  OperationsErrorCode,
  OpsTokens,
  parseAcknowledgeContradiction,
  parseCreateBeneficiary,
  parseDeadLetterPage,
  parseDecideProposal,
  parseExportPayouts,
  parseListProposals,
  parseListRequiringAttention,
  parseProposeSettlement,
  parseSearchPayouts,
  PayoutTimeline,
  ProposeSettlement,
  RecheckPayout,
  RejectProposal,
  RemoveBeneficiary,
  ReplayDeadEvent,
  roleAllows,
  type SearchQuery,
  SearchPayouts,
  SignInGate,
  SignInRecorder,
} from '#operations';
import { httpStatusOf } from './problem.filter.js';
import { cookieOf, OPS_ACCESS, type OpsAccess, SESSION_COOKIE } from './ops-access.js';

/** The least role a route needs (ACTION_ROLE): read, recheck, replay, propose or decide. */
export const Needs = (action: OperatorAction) => SetMetadata('ops-action', action);

interface OpsRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  /** The peer's address (fastify's request.ip; no proxy header is trusted). */
  ip: string;
  operator?: Operator;
}

/** The operator the guard authenticated. */
export const Who = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Operator => ctx.switchToHttp().getRequest<OpsRequest>().operator!,
);

/**
 * Who is asking the operations API: a bearer token (the configured operators' own, OPS_OPERATORS,
 * or an issued automation token), or the console's session cookie (ADR 0021), and their role must
 * allow the route's action. Failed token sign-ins are counted, logged sampled and limited per
 * source address (SignInGate): past the limit, 429 with Retry-After; token sign-ins are audited
 * (SignInRecorder). A session cookie is taken only without an Authorization header, and a
 * state-changing call with it must carry `X-Ops-Console` (a header no other site can make a
 * browser send here without a CORS preflight this service never grants). With no operator
 * configured and no identity provider the API does not exist: 404, as any unknown path.
 */
@Injectable()
export class OpsAuthGuard implements CanActivate {
  constructor(
    @Inject(OPS_ACCESS) private readonly access: OpsAccess,
    @Inject(SignInGate) private readonly gate: SignInGate,
    @Inject(SignInRecorder) private readonly recorder: SignInRecorder,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.access.enabled) throw new HttpException({ statusCode: 404, message: 'Not Found' }, 404);
    const req = context.switchToHttp().getRequest<OpsRequest>();
    const sessionId =
      req.headers['authorization'] === undefined
        ? cookieOf(req.headers['cookie'], SESSION_COOKIE)
        : undefined;
    const who =
      sessionId !== undefined && this.access.sessions
        ? await this.bySession(this.access.sessions, sessionId, req)
        : await this.byToken(req, context);
    const action =
      this.reflector.get<OperatorAction | undefined>('ops-action', context.getHandler()) ?? 'read';
    if (!roleAllows(who.role, action))
      throw new HttpException(
        {
          statusCode: 403,
          code: OperationsErrorCode.Forbidden,
          message: `operator ${who.id} (${who.role}) may not do this: it needs ${ACTION_ROLE[action]}`,
        },
        403,
      );
    req.operator = who;
    return true;
  }

  private async bySession(sessions: ConsoleSessions, sessionId: string, req: OpsRequest): Promise<Operator> {
    const who = await sessions.operatorOf(sessionId);
    if (!who)
      throw new HttpException(
        { statusCode: 401, message: 'your console session has ended: sign in again' },
        401,
      );
    if (!['GET', 'HEAD'].includes(req.method) && req.headers['x-ops-console'] === undefined)
      throw new HttpException(
        {
          statusCode: 403,
          code: OperationsErrorCode.Forbidden,
          message: 'a change made with the console session cookie must carry the X-Ops-Console header',
        },
        403,
      );
    return who;
  }

  private async byToken(req: OpsRequest, context: ExecutionContext): Promise<Operator> {
    const signIn = await this.gate.attempt(req.ip, req.headers['authorization'], Date.now());
    // The address, who and which token (its id), never the token: a refusal with no header at
    // all (a console not signed in yet) is only counted.
    if (signIn.ok)
      await this.recorder.token(
        {
          outcome: 'success',
          operatorId: signIn.operator.id,
          role: signIn.operator.role,
          tokenId: signIn.tokenId,
          source: req.ip,
        },
        Date.now(),
      );
    else if (signIn.reason !== 'missing' && signIn.reason !== 'limited')
      await this.recorder.token(
        { outcome: signIn.reason, tokenId: signIn.tokenId, source: req.ip },
        Date.now(),
      );
    if (!signIn.ok && signIn.retryAfterSeconds !== undefined) {
      context
        .switchToHttp()
        .getResponse<FastifyReply>()
        .header('retry-after', String(signIn.retryAfterSeconds));
      throw new HttpException(
        { statusCode: 429, message: 'too many failed sign-ins from this address: try again later' },
        429,
      );
    }
    if (!signIn.ok) {
      const message =
        signIn.reason === 'expired_token'
          ? 'this token has expired'
          : signIn.reason === 'revoked_token'
            ? 'this token was revoked'
            : 'a valid bearer token (or a console session) is required';
      throw new HttpException({ statusCode: 401, message }, 401);
    }
    return signIn.operator;
  }
}

export async function answer<T>(work: () => Promise<T> | T): Promise<T> {
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

const bodyOf = (b: unknown): Record<string, unknown> =>
  typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};

/**
 * Transport glue only: decode the request into the use case's command (its parse function, inside
 * `answer`, so a bad input is a 400 problem), call the use case, map domain errors.
 */
@Controller('ops')
@UseGuards(OpsAuthGuard)
export class OpsController {
  constructor(
    @Inject(GetPayout) private readonly getPayout: GetPayout,
    @Inject(GetBatch) private readonly getBatch: GetBatch,
    @Inject(PayoutTimeline) private readonly payoutTimeline: PayoutTimeline,
    @Inject(BatchTimeline) private readonly batchTimelineOf: BatchTimeline,
    @Inject(ListRequiringAttention) private readonly requiringAttention: ListRequiringAttention,
    @Inject(AcknowledgeContradiction) private readonly acknowledgeContradiction: AcknowledgeContradiction,
    @Inject(SearchPayouts) private readonly searchPayouts: SearchPayouts,
    @Inject(ExportPayouts) private readonly exportPayouts: ExportPayouts,
    @Inject(RecheckPayout) private readonly recheckPayout: RecheckPayout,
    @Inject(ReplayDeadEvent) private readonly replayDeadEvent: ReplayDeadEvent,
    @Inject(ProposeSettlement) private readonly proposeSettlement: ProposeSettlement,
    @Inject(ApproveProposal) private readonly approveProposal: ApproveProposal,
    @Inject(RejectProposal) private readonly rejectProposal: RejectProposal,
    @Inject(ListProposals) private readonly listProposals: ListProposals,
    @Inject(ListDeadLetters) private readonly listDeadLetters: ListDeadLetters,
    @Inject(ListDeadOutboxRows) private readonly listDeadOutboxRows: ListDeadOutboxRows,
    @Inject(GetBeneficiary) private readonly getBeneficiary: GetBeneficiary,
    @Inject(CreateBeneficiary) private readonly createBeneficiaryUseCase: CreateBeneficiary,
    @Inject(RemoveBeneficiary) private readonly removeBeneficiaryUseCase: RemoveBeneficiary,
    @Inject(OpsTokens) private readonly tokens: OpsTokens,
  ) {}

  @Get('openapi.json')
  openapi() {
    return opsOpenApi();
  }

  @Get('me')
  me(@Who() who: Operator) {
    const may = (Object.keys(ACTION_ROLE) as OperatorAction[]).filter((a) => roleAllows(who.role, a));
    return { id: who.id, role: who.role, may };
  }

  @Get('payouts')
  search(@Query() q: SearchQuery) {
    return answer(() => this.searchPayouts.execute(parseSearchPayouts(q)));
  }

  @Get('payouts/export.csv')
  async export(@Query() q: SearchQuery, @Res() reply: FastifyReply) {
    const rows = await answer(() => this.exportPayouts.execute(parseExportPayouts(q)));
    async function* csv() {
      yield csvHeader();
      for await (const r of rows) yield csvLine(r);
    }
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="payouts.csv"')
      .header('cache-control', 'no-store')
      .send(Readable.from(csv()));
  }

  @Get('payouts/:accountId/:transferId')
  payout(@Param('accountId') accountId: string, @Param('transferId') transferId: string) {
    return answer(() => this.getPayout.execute({ accountId, transferId }));
  }

  @Get('payouts/:accountId/:transferId/timeline')
  timeline(@Param('accountId') accountId: string, @Param('transferId') transferId: string) {
    return answer(() => this.payoutTimeline.execute({ accountId, transferId }));
  }

  @Post('payouts/:accountId/:transferId/recheck')
  @Needs('recheck')
  @HttpCode(202)
  recheck(
    @Who() who: Operator,
    @Param('accountId') accountId: string,
    @Param('transferId') transferId: string,
  ) {
    return answer(() => this.recheckPayout.execute(who, { accountId, transferId }));
  }

  @Post('payouts/:accountId/:transferId/proposals')
  @Needs('propose')
  @HttpCode(201)
  propose(
    @Who() who: Operator,
    @Param('accountId') accountId: string,
    @Param('transferId') transferId: string,
    @Body() body: unknown,
  ) {
    return answer(() =>
      this.proposeSettlement.execute(who, parseProposeSettlement({ accountId, transferId }, body)),
    );
  }

  @Get('proposals')
  proposals(@Query() q: SearchQuery) {
    return answer(() => this.listProposals.execute(parseListProposals(q)));
  }

  @Post('proposals/:id/approve')
  @Needs('decide')
  @HttpCode(200)
  approve(@Who() who: Operator, @Param('id') id: string, @Body() body: unknown) {
    return answer(() => this.approveProposal.execute(who, parseDecideProposal(id, body)));
  }

  @Post('proposals/:id/reject')
  @Needs('decide')
  @HttpCode(200)
  reject(@Who() who: Operator, @Param('id') id: string, @Body() body: unknown) {
    return answer(() => this.rejectProposal.execute(who, parseDecideProposal(id, body)));
  }

  @Get('batches/:accountId/:batchTransferId')
  batch(@Param('accountId') accountId: string, @Param('batchTransferId') batchTransferId: string) {
    return answer(() => this.getBatch.execute({ accountId, batchTransferId }));
  }

  @Get('batches/:accountId/:batchTransferId/timeline')
  batchTimeline(@Param('accountId') accountId: string, @Param('batchTransferId') batchTransferId: string) {
    return answer(() => this.batchTimelineOf.execute({ accountId, batchTransferId }));
  }

  @Get('requires-attention')
  requiresAttention(@Query('limit') limit?: string) {
    return answer(() => this.requiringAttention.execute(parseListRequiringAttention({ limit })));
  }

  @Post('contradictions/:contradictionId/acknowledge')
  @Needs('acknowledge')
  @HttpCode(200)
  acknowledge(@Who() who: Operator, @Param('contradictionId') id: string, @Body() body: unknown) {
    return answer(() => this.acknowledgeContradiction.execute(who, parseAcknowledgeContradiction(id, body)));
  }

  /** A beneficiary as the account's provider API generation shows it, masked. */
  @Get('beneficiaries/:accountId/:beneId')
  beneficiary(@Param('accountId') accountId: string, @Param('beneId') beneId: string) {
    return answer(() => this.getBeneficiary.execute({ accountId, beneId }));
  }

  /** Registers one; the same details again answer `exists` (200 either way: the body says which). */
  @Post('beneficiaries/:accountId')
  @Needs('beneficiary')
  @HttpCode(200)
  createBeneficiary(@Who() who: Operator, @Param('accountId') accountId: string, @Body() body: unknown) {
    return answer(() => this.createBeneficiaryUseCase.execute(who, parseCreateBeneficiary(accountId, body)));
  }

  /** Removes one; one already gone answers `absent`. */
  @Delete('beneficiaries/:accountId/:beneId')
  @Needs('beneficiary')
  @HttpCode(200)
  removeBeneficiary(
    @Who() who: Operator,
    @Param('accountId') accountId: string,
    @Param('beneId') beneId: string,
  ) {
    return answer(() => this.removeBeneficiaryUseCase.execute(who, { accountId, beneId }));
  }

  @Post('outbox/:eventId/replay')
  @Needs('replay')
  @HttpCode(202)
  replay(@Who() who: Operator, @Param('eventId') eventId: string) {
    return answer(async () => {
      await this.replayDeadEvent.execute(who, eventId);
      return { replayed: eventId };
    });
  }

  /** Issues an automation token (approver): the token is in this answer only; it is stored hashed. */
  @Post('tokens')
  @Needs('tokens')
  @HttpCode(201)
  issueToken(@Who() who: Operator, @Body() body: unknown) {
    return answer(() => this.tokens.issue(who, bodyOf(body)));
  }

  /** Automation tokens, newest first, revoked and expired ones too; never a secret. */
  @Get('tokens')
  @Needs('tokens')
  listTokens(@Query('limit') limit?: string) {
    return answer(() => this.tokens.list(limit === undefined ? 100 : Number(limit)));
  }

  /** Revokes a token at once (every instance: each request looks the token up). */
  @Delete('tokens/:tokenId')
  @Needs('tokens')
  @HttpCode(200)
  revokeToken(@Who() who: Operator, @Param('tokenId') id: string) {
    return answer(() => this.tokens.revoke(who, id));
  }

  /** Outbox rows the relay gave up on (replayable above), newest first, paged; never their payload. */
  @Get('outbox/dead')
  deadOutboxRows(@Query('cursor') cursor?: string, @Query('limit') limit?: string) {
    return answer(() => this.listDeadOutboxRows.execute(parseDeadLetterPage({ cursor, limit })));
  }

  /** Commands refused to the dead-letter topic (their mirror rows, scrubbed: ADR 0007), newest first, paged. */
  @Get('dead-letters')
  deadLetters(@Query('cursor') cursor?: string, @Query('limit') limit?: string) {
    return answer(() => this.listDeadLetters.execute(parseDeadLetterPage({ cursor, limit })));
  }
}
