import { Readable } from 'node:stream';
import {
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpException,
  Inject,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { type FastifyReply } from 'fastify';
import {
  type OperationsUseCases,
  OperationsError,
  OPERATIONS,
  OPS_ROUTES,
  opsOpenApi,
  OpsTokens,
  type OpsRoute,
  type OpsServices,
  routerPath,
  type SearchQuery,
} from '#operations';
import { httpStatusOf } from './problem.filter.js';
import { Needs, OpsAuthGuard, type OpsRequest } from './ops-auth.guard.js';

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

interface RouteRequest extends OpsRequest {
  params?: Record<string, string>;
  query?: SearchQuery;
  body?: unknown;
}

/**
 * Transport glue only: every route of the registry (OPS_ROUTES, libs/operations) becomes a handler
 * below, with the registry's method, path, answer status and least role (read by OpsAuthGuard).
 * A handler hands the route the operator, path, query and body; the route parses them into its use
 * case's command (inside `answer`, so a bad input is a 400 problem) and runs it.
 */
@Controller('ops')
@UseGuards(OpsAuthGuard)
export class OpsController {
  private readonly services: OpsServices;

  constructor(@Inject(OPERATIONS) useCases: OperationsUseCases, @Inject(OpsTokens) tokens: OpsTokens) {
    this.services = { useCases, tokens, openApi: opsOpenApi };
  }

  run(route: OpsRoute, req: RouteRequest): Promise<unknown> {
    return answer(() =>
      route.run(this.services, {
        who: req.operator!,
        params: req.params ?? {},
        query: req.query ?? {},
        body: req.body,
      }),
    );
  }

  /** A CSV route: its lines streamed, never held whole. */
  async stream(route: OpsRoute, req: RouteRequest, reply: FastifyReply): Promise<void> {
    const lines = (await this.run(route, req)) as AsyncIterable<string>;
    const filename = 'csv' in route.answer ? route.answer.csv : 'answer.csv';
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines));
  }
}

const VERB = { get: Get, post: Post, delete: Delete } as const;

/** One handler per route, decorated as Nest would a written method. */
function addRoute(route: OpsRoute): void {
  const proto = OpsController.prototype as unknown as Record<string, unknown>;
  if (route.name in proto) throw new Error(`two operations routes are named ${route.name}`);
  const csv = 'csv' in route.answer;
  const handler = csv
    ? function (this: OpsController, req: RouteRequest, reply: FastifyReply) {
        return this.stream(route, req, reply);
      }
    : function (this: OpsController, req: RouteRequest) {
        return this.run(route, req);
      };
  Object.defineProperty(handler, 'name', { value: route.name });
  Object.defineProperty(proto, route.name, { value: handler, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(proto, route.name)!;
  VERB[route.method](routerPath(route).slice('/ops/'.length))(proto, route.name, descriptor);
  HttpCode(route.answer.status)(proto, route.name, descriptor);
  Needs(route.action)(proto, route.name, descriptor);
  Req()(proto, route.name, 0);
  if (csv) Res()(proto, route.name, 1);
}

for (const route of OPS_ROUTES) addRoute(route);
