import { type ArgumentsHost, Catch, HttpException, HttpStatus, type HttpServer } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { BaseRpcExceptionFilter } from '@nestjs/microservices';
import { type AppLogger } from '#observability';
import {
  OperationsError,
  OperationsErrorCode,
  PROBLEM_JSON,
  problemCodeOfStatus,
  problemDetails,
  type ProblemDetails,
} from '#operations';

/** The edge: the one place operations errors become HTTP statuses. */
export function httpStatusOf(code: OperationsErrorCode): HttpStatus {
  switch (code) {
    case OperationsErrorCode.NotFound:
      return HttpStatus.NOT_FOUND;
    case OperationsErrorCode.InvalidInput:
      return HttpStatus.BAD_REQUEST;
    case OperationsErrorCode.Forbidden:
      return HttpStatus.FORBIDDEN;
    case OperationsErrorCode.Terminal:
    case OperationsErrorCode.NotSubmitted:
    case OperationsErrorCode.InFlight:
    case OperationsErrorCode.NoStatusEndpoint:
    case OperationsErrorCode.ConcurrentChange:
    case OperationsErrorCode.NotHeld:
    case OperationsErrorCode.NotRequiringAttention:
    case OperationsErrorCode.ProposalOpen:
    case OperationsErrorCode.ProposalDecided:
    case OperationsErrorCode.Conflict:
      return HttpStatus.CONFLICT;
    case OperationsErrorCode.ProviderRefused:
      return HttpStatus.UNPROCESSABLE_ENTITY;
    case OperationsErrorCode.ProviderUnavailable:
      return HttpStatus.SERVICE_UNAVAILABLE;
    case OperationsErrorCode.ProviderUnclear:
      return HttpStatus.GATEWAY_TIMEOUT;
  }
}

const isOpsPath = (url: string) => /^\/ops(?:[/?]|$)/.test(url);

/** An error the HTTP server or a framework raised with a status (fastify's, http-errors'). */
function statusOf(e: unknown): number | undefined {
  const s = (e as { statusCode?: unknown } | null)?.statusCode;
  return typeof s === 'number' && s >= 400 && s <= 599 ? s : undefined;
}

/**
 * What went wrong, as a problem: the service's own code and message when it gave them (an
 * OperationsError, or an HttpException the guard or `answer` threw with `{code, message}`), else
 * the status's code and the framework's message for a 4xx (bad JSON, too large: it names no
 * value), and nothing of the error for a 5xx (its message may hold anything).
 */
export function problemOf(e: unknown, path: string): ProblemDetails {
  if (e instanceof OperationsError) {
    return problemDetails({ status: httpStatusOf(e.code), code: e.code, detail: e.message, path });
  }
  if (e instanceof HttpException) {
    const status = e.getStatus();
    const body = e.getResponse();
    const o = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const m = typeof body === 'string' ? body : (o['detail'] ?? o['message']);
    const detail = Array.isArray(m) ? m.map(String).join('; ') : typeof m === 'string' ? m : e.message;
    const code = typeof o['code'] === 'string' ? o['code'] : problemCodeOfStatus(status);
    return problemDetails({ status, code, detail: status >= 500 ? 'internal error' : detail, path });
  }
  const status = statusOf(e);
  if (status !== undefined && status < 500) {
    const message = e instanceof Error ? e.message : '';
    return problemDetails({ status, code: problemCodeOfStatus(status), detail: message || 'refused', path });
  }
  return problemDetails({
    status: status ?? 500,
    code: problemCodeOfStatus(status ?? 500),
    detail: 'internal error: the request failed; nothing more is said here (see the service log)',
    path,
  });
}

/**
 * Every HTTP error under /ops (the routes' own, the guard's, Nest's 404 for an unknown path, and
 * fastify's: bad JSON, too large, unsupported media type) answers RFC 9457 problem details
 * (application/problem+json). Other paths and the Kafka transport keep Nest's defaults (health
 * answers its own body; a failed Kafka batch is delivered again).
 */
@Catch()
export class ProblemDetailsFilter extends BaseExceptionFilter {
  private readonly rpc = new BaseRpcExceptionFilter();

  constructor(
    private readonly server: HttpServer,
    private readonly logger: AppLogger,
  ) {
    super(server);
  }

  override catch(exception: unknown, host: ArgumentsHost): unknown {
    if (host.getType() !== 'http') return this.rpc.catch(exception, host);
    const request: unknown = host.getArgByIndex(0);
    const response: unknown = host.getArgByIndex(1);
    const url = this.server.getRequestUrl?.(request) ?? '';
    if (!isOpsPath(url)) return super.catch(exception, host);
    const problem = problemOf(exception, url);
    if (problem.status >= 500) {
      this.logger.error({ err: exception, path: problem.instance }, 'operations API: request failed');
    }
    if (this.server.isHeadersSent(response)) {
      this.server.end?.(response);
      return undefined;
    }
    this.server.setHeader(response, 'content-type', `${PROBLEM_JSON}; charset=utf-8`);
    this.server.setHeader(response, 'cache-control', 'no-store');
    if (problem.status === 401) this.server.setHeader(response, 'www-authenticate', 'Bearer');
    return this.server.reply(response, JSON.stringify(problem), problem.status);
  }
}
