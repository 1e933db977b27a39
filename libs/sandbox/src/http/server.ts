import { fastify, type FastifyError, type FastifyInstance } from 'fastify';
import { type AppLogger } from '#observability';
import { type SandboxWorld } from '../core/world.js';
import { registerControl } from '../control/control.routes.js';
import { LEGACY_ENDPOINTS, V2_ENDPOINTS } from '../handlers/registry.js';
import { COMMON } from '../tables/common.table.js';
import { type LegacyRow, type V2Row } from '../tables/row.js';
import { V2_COMMON } from '../tables/v2-common.table.js';
import { registerLegacy, sendLegacy } from './legacy-route.js';
import { registerV2, sendV2Error } from './v2-route.js';

type Family = 'legacy' | 'v2' | 'control';

function familyOf(url: string): Family {
  if (url.startsWith('/payout/v1')) return 'legacy';
  if (url.startsWith('/__sandbox')) return 'control';
  return 'v2';
}

class BadJson extends Error {
  readonly code = 'SANDBOX_BAD_JSON';
  readonly statusCode = 400;
}

/**
 * The HTTP layer: fastify with no request logging, one JSON parser for every content type (an
 * empty body is "no body"), and every decoding failure answered in the provider's own style.
 */
export function buildServer(world: SandboxWorld, logger: AppLogger): FastifyInstance {
  const app = fastify({
    // Router-level refusals (undecodable URL, over-long path parameter) in provider style too.
    frameworkErrors: (_err, req, reply) => {
      const family = familyOf(req.url);
      if (family === 'legacy') return sendLegacy(reply, { row: COMMON.invalidUrl });
      return sendV2Error(reply, {
        http: 400,
        type: 'invalid_request_error',
        code: 'request_url_invalid',
        message: 'request URL is invalid',
      });
    },
    logger: false,
    bodyLimit: world.settings.bodyLimitBytes,
    forceCloseConnections: true,
    return503OnClosing: false,
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, raw, done) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(new BadJson('malformed JSON'), undefined);
    }
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const family = familyOf(req.url);
    const tooLarge = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
    const badInput = tooLarge || err.code === 'SANDBOX_BAD_JSON' || err.code?.startsWith('FST_ERR_CTP');
    if (!badInput) logger.error({ err, url: req.url.split('?')[0] }, 'sandbox handler failed');
    if (family === 'legacy') {
      const row: LegacyRow = tooLarge
        ? COMMON.bodyTooLarge
        : badInput
          ? COMMON.malformedJson
          : COMMON.unknownError;
      return sendLegacy(reply, { row });
    }
    if (family === 'v2') {
      const row: V2Row = tooLarge
        ? V2_COMMON.bodyTooLarge
        : badInput
          ? V2_COMMON.malformedJson
          : V2_COMMON.internalError;
      return sendV2Error(reply, row);
    }
    void reply.code(badInput ? 400 : 500).send({ error: badInput ? err.message : 'internal error' });
  });

  app.setNotFoundHandler((req, reply) => {
    const family = familyOf(req.url);
    if (family === 'legacy') return sendLegacy(reply, { row: COMMON.methodNotAllowed });
    if (family === 'v2') {
      return sendV2Error(reply, {
        http: 404,
        type: 'invalid_request_error',
        code: 'url_not_found',
        message: `no route for ${req.method} ${req.url.split('?')[0] ?? ''}`,
      });
    }
    void reply.code(404).send({ error: 'not found' });
  });

  for (const ep of LEGACY_ENDPOINTS) registerLegacy(app, world, ep);
  registerV2(app, world, V2_ENDPOINTS);
  registerControl(app, world);
  return app;
}
