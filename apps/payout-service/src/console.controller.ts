import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, Headers, Inject, Param, Req, Res } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { LOGGER, type AppLogger } from '#observability';

/**
 * The web console's files: plain HTML, CSS and ES modules, no build step. They are served from
 * the source folder apps/payout-service/console/ (the Dockerfile copies it beside dist/), found
 * from this module's place in dist/: dist/apps/payout-service/src/ -> apps/payout-service/console/.
 */
export const CONSOLE_DIR = fileURLToPath(
  new URL('../../../../apps/payout-service/console/', import.meta.url),
);

/**
 * The console's pages run only the console's own scripts and styles, talk only to this origin,
 * cannot be framed, and refuse any assignment of HTML from a string (Trusted Types with no policy:
 * `innerHTML = ...` throws), so data can only ever reach the page as text.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  // Revalidated on every load (cheap: an ETag), so a deploy is seen at once.
  'cache-control': 'no-cache',
};

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/** Every servable file, read once at boot: the only names the console answers (no path is ever joined from a request). */
export function loadConsoleAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    const path = join(dir, name);
    if (!type || !statSync(path).isFile()) continue;
    const body = readFileSync(path);
    // A digest of a static file shipped with the service: no personal data in it.
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(name, { body, type, etag });
  }
  return assets;
}

export const CONSOLE_ASSETS = Symbol('CONSOLE_ASSETS');

/** GET /console (the page) and /console/<file>. The console holds no secret: the operator types their own token. */
@Controller('console')
export class ConsoleController {
  constructor(
    @Inject(CONSOLE_ASSETS) private readonly assets: Map<string, Asset>,
    @Inject(LOGGER) logger: AppLogger,
  ) {
    if (!assets.has('index.html'))
      logger.warn({ dir: CONSOLE_DIR }, 'web console files not found: /console answers 404');
  }

  @Get()
  index(
    @Headers('if-none-match') etag: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    // `/console/` (the router ignores a trailing slash): the page's links are relative to
    // `/console`, so send the browser there, relatively, which also holds behind a path prefix.
    if ((req.url.split('?')[0] ?? '').endsWith('/')) {
      void reply.headers(SECURITY_HEADERS).redirect('../console', 301);
      return;
    }
    this.send('index.html', etag, reply);
  }

  @Get(':file')
  file(
    @Param('file') file: string,
    @Headers('if-none-match') etag: string | undefined,
    @Res() reply: FastifyReply,
  ): void {
    this.send(file, etag, reply);
  }

  private send(name: string, ifNoneMatch: string | undefined, reply: FastifyReply): void {
    const asset = this.assets.get(name);
    void reply.headers(SECURITY_HEADERS);
    if (!asset) {
      void reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
      return;
    }
    void reply.header('etag', asset.etag);
    if (ifNoneMatch === asset.etag) {
      void reply.code(304).send();
      return;
    }
    void reply.code(200).type(asset.type).send(asset.body);
  }
}
