import {
  type CanActivate,
  type ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type FastifyReply } from 'fastify';
import {
  ConsoleSessions,
  mayDo,
  type Operator,
  type OperatorAction,
  OperationsErrorCode,
  refusalOf,
  SignInGate,
  SignInRecorder,
} from '#operations';
import { cookieOf, OPS_ACCESS, type OpsAccess, SESSION_COOKIE } from './ops-access.js';

/** The least role a route needs (ACTION_ROLE): read, recheck, replay, propose or decide. */
export const Needs = (action: OperatorAction) => SetMetadata('ops-action', action);

/** The request as the guard reads it; it sets `operator` for the handler. */
export interface OpsRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  /** The peer's address (fastify's request.ip; no proxy header is trusted). */
  ip: string;
  operator?: Operator;
}

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
    // The role, and what no automation token may do whatever its role (decide, tokens).
    if (!mayDo(who, action))
      throw new HttpException(
        { statusCode: 403, code: OperationsErrorCode.Forbidden, message: refusalOf(who, action) },
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
