import { Controller, Get, Headers, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { FailureWindow, oidcFailure } from '#operations';
import { LOGGER, type AppLogger } from '#observability';
import { SECURITY_HEADERS } from './console.controller.js';
import {
  cookieOf,
  LOGIN_COOKIE,
  OPS_ACCESS,
  type OpsAccess,
  publicBase,
  SESSION_COOKIE,
  setCookie,
} from './ops-access.js';

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of the sign-in (no script: the console's CSP holds), its text escaped. */
function page(title: string, text: string, link: { href: string; label: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Payouts console</title><link rel="stylesheet" href="../console.css"></head>
<body><header class="bar"><strong class="brand">Payouts console</strong></header>
<main id="main"><section class="login" data-view="refused"><h1>${escape(title)}</h1>
<p class="notice error">${escape(text)}</p><p><a href="${escape(link.href)}">${escape(link.label)}</a></p></section></main>
</body></html>`;
}

/**
 * The console's OpenID Connect sign-in (ADR 0021): `login` sends the browser to the identity
 * provider (authorization code, PKCE S256, state, nonce), `callback` exchanges the code on the
 * server and starts a server-side session (an HttpOnly cookie holding an opaque id), `logout`
 * ends it here and at the provider. `methods` tells the console which sign-ins exist.
 */
@Controller('console/auth')
export class ConsoleAuthController {
  /**
   * Sign-ins started per source address: each writes a row (pruned after 10 minutes), so a
   * source may start 20 a minute; a person needs one.
   */
  private readonly starts = new FailureWindow(20, 60_000);

  constructor(
    @Inject(OPS_ACCESS) private readonly access: OpsAccess,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  /**
   * The sign-ins this service offers, and whether the caller's session cookie (which the page
   * cannot read: HttpOnly) is live: the console asks here before calling /ops, so opening it
   * signed out is not a failed sign-in (it would count toward the address's limit and the alert).
   */
  @Get('methods')
  async methods(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { sessions } = this.access;
    const id = cookieOf(req.headers.cookie, SESSION_COOKIE);
    const session =
      id !== undefined && sessions !== undefined && (await sessions.operatorOf(id)) !== undefined;
    void reply
      .headers(SECURITY_HEADERS)
      .header('cache-control', 'no-store')
      .send({ oidc: sessions !== undefined, token: true, session });
  }

  @Get('login')
  async login(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    void reply.headers(SECURITY_HEADERS).header('cache-control', 'no-store');
    const { sessions, oidc } = this.access;
    if (!sessions || !oidc) {
      void reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
      return;
    }
    const now = Date.now();
    const retryAfter = this.starts.refusal(req.ip, now);
    if (retryAfter !== undefined) {
      void reply
        .code(429)
        .header('retry-after', String(retryAfter))
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Too many sign-ins',
            'Too many sign-ins were started from this address. Try again in a minute.',
            {
              href: 'login',
              label: 'Try again',
            },
          ),
        );
      return;
    }
    this.starts.fail(req.ip, now);
    const base = publicBase(oidc);
    try {
      const { loginId, url } = await sessions.start();
      void reply
        .header(
          'set-cookie',
          setCookie(LOGIN_COOKIE, loginId, {
            path: `${base.path}console/auth`,
            secure: base.secure,
            maxAgeS: 600,
          }),
        )
        .redirect(url.href, 302);
    } catch (e) {
      this.logger.warn(
        { error: oidcFailure(e) },
        'console sign-in: the identity provider could not be reached (discovery or authorization request)',
      );
      void reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send(
          page('Sign-in unavailable', 'The identity provider could not be reached. Try again in a moment.', {
            href: 'login',
            label: 'Try again',
          }),
        );
    }
  }

  @Get('callback')
  async callback(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    void reply.headers(SECURITY_HEADERS).header('cache-control', 'no-store');
    const { sessions, oidc } = this.access;
    if (!sessions || !oidc) {
      void reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
      return;
    }
    const base = publicBase(oidc);
    // The address the provider sent the browser to: the configured redirect URI and this query.
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const callbackUrl = new URL(oidc.redirectUri.pathname + query, oidc.redirectUri.origin);
    const result = await sessions.finish(cookieOf(req.headers.cookie, LOGIN_COOKIE), callbackUrl, req.ip);
    const clearLogin = setCookie(LOGIN_COOKIE, '', {
      path: `${base.path}console/auth`,
      secure: base.secure,
      maxAgeS: 0,
    });
    if (result.ok) {
      void reply
        .header('set-cookie', [
          clearLogin,
          setCookie(SESSION_COOKIE, result.sessionId, {
            path: base.path,
            secure: base.secure,
            maxAgeS: (result.expiresAt.getTime() - Date.now()) / 1000,
          }),
        ])
        .redirect(`${base.path}console#/queue`, 302);
      return;
    }
    if (result.reason === 'provider_error')
      this.logger.warn(
        { source: req.ip, error: result.detail },
        'console sign-in: the identity provider did not confirm a sign-in (code exchange or ID token refused)',
      );
    const [status, title, text] =
      result.reason === 'no_role'
        ? ([
            403,
            'Not allowed',
            `${result.who ?? 'This account'} signed in, but holds no role in the payouts console. Ask an administrator to add you to one of its groups.`,
          ] as const)
        : result.reason === 'no_login'
          ? ([
              400,
              'Sign-in expired',
              'This sign-in was not started here, took too long, or was already used.',
            ] as const)
          : ([502, 'Sign-in failed', 'The identity provider did not confirm this sign-in.'] as const);
    void reply
      .header('set-cookie', clearLogin)
      .code(status)
      .type('text/html; charset=utf-8')
      .send(page(title, text, { href: 'login', label: 'Sign in again' }));
  }

  /**
   * Ends the session (the cookie no longer works, on any instance) and answers where to go next:
   * the provider's end-session page when it has one. Needs `X-Ops-Console`, as every change made
   * with the cookie does.
   */
  @Post('logout')
  @HttpCode(200)
  async logout(
    @Headers('x-ops-console') marker: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    void reply.headers(SECURITY_HEADERS).header('cache-control', 'no-store');
    const { sessions, oidc } = this.access;
    if (!sessions || !oidc) {
      void reply.code(404).send({ statusCode: 404, message: 'Not Found' });
      return;
    }
    if (marker === undefined) {
      void reply.code(403).send({ statusCode: 403, message: 'sign-out must carry the X-Ops-Console header' });
      return;
    }
    const base = publicBase(oidc);
    const after = new URL(`${base.path}console`, base.origin);
    const endSession = await sessions.signOut(cookieOf(req.headers.cookie, SESSION_COOKIE), after, req.ip);
    void reply
      .header(
        'set-cookie',
        setCookie(SESSION_COOKIE, '', { path: base.path, secure: base.secure, maxAgeS: 0 }),
      )
      .send({ signedOut: true, endSession: endSession?.href ?? null });
  }
}
