import * as oidc from 'openid-client';
import { claimAt } from './role-map.js';
import { isLoopback, type OidcSettings } from './sign-in.config.js';

/** What the browser must hold (in the pending sign-in row) to finish a sign-in it started. */
export interface Authorization {
  readonly url: URL;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** Who the identity provider says signed in: the ID token's claims, with userinfo's if asked for. */
export interface Identity {
  /** The ID token's `iss` and `sub`: together, the person (`oidcHumanId`), stable for their life. */
  readonly issuer: string;
  readonly subject: string;
  /**
   * For display only (never compared: a username is mutable, and not unique at many providers):
   * preferred_username, else name, else the subject. Never an e-mail address (personal data).
   */
  readonly name: string;
  readonly claims: Readonly<Record<string, unknown>>;
  /** The ID token's `exp`, in epoch milliseconds. */
  readonly expiresAt: number;
}

/**
 * The display name: preferred_username when it is a plain name, else `name`, else the subject. An
 * e-mail address is never used: it is personal data, and the name goes into logs, audit rows and
 * ops API answers (Google sends no preferred_username; Entra's is the UPN, often an address).
 * Only for display: who a person is, is their issuer and subject (`oidcHumanId`).
 */
export function operatorNameOf(claims: Readonly<Record<string, unknown>>, subject: string): string {
  for (const claim of ['preferred_username', 'name']) {
    const v = claims[claim];
    if (typeof v === 'string' && v.trim() !== '' && !v.includes('@')) return v.trim().slice(0, 120);
  }
  return subject;
}

/** The port the sign-in use cases ask: the protocol, and nothing of the service. */
export interface IdentityProvider {
  authorize(): Promise<Authorization>;
  /** Exchanges the code of `callbackUrl` (state, nonce, PKCE checked), or throws. */
  finish(
    callbackUrl: URL,
    pending: { state: string; nonce: string; codeVerifier: string },
  ): Promise<Identity>;
  /** The provider's end_session_endpoint for a sign-out that returns to `after`, if it has one. */
  endSessionUrl(after: URL): Promise<URL | undefined>;
}

const DISCOVERY_TIMEOUT_S = 10;

/**
 * OpenID Connect through openid-client (panva's certified relying party): discovery, the
 * authorization code flow with PKCE (S256), state and nonce, the code exchange with the client
 * secret, and ID token validation are all the library's; this class only holds the settings.
 * Discovery is done on the first sign-in and kept; a failed one is retried by the next sign-in,
 * so a provider down at boot does not stop the service (token sign-in goes on).
 */
export class OpenIdConnectProvider implements IdentityProvider {
  private config: Promise<oidc.Configuration> | undefined;

  constructor(private readonly settings: OidcSettings) {}

  private configuration(): Promise<oidc.Configuration> {
    this.config ??= oidc
      .discovery(
        this.settings.issuer,
        this.settings.clientId,
        undefined,
        oidc.ClientSecretBasic(this.settings.clientSecret),
        {
          timeout: DISCOVERY_TIMEOUT_S,
          // The settings allow http only for a loopback issuer (a provider started by a test).
          ...(this.settings.issuer.protocol === 'http:' && isLoopback(this.settings.issuer)
            ? { execute: [oidc.allowInsecureRequests] }
            : {}),
        },
      )
      .catch((e: unknown) => {
        this.config = undefined;
        throw e;
      });
    return this.config;
  }

  async authorize(): Promise<Authorization> {
    const config = await this.configuration();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri.href,
      scope: this.settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url, state, nonce, codeVerifier };
  }

  async finish(
    callbackUrl: URL,
    pending: { state: string; nonce: string; codeVerifier: string },
  ): Promise<Identity> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const id = tokens.claims();
    if (!id) throw new Error('the identity provider returned no ID token');
    let claims: Record<string, unknown> = { ...id };
    // Providers that keep the groups out of the ID token (the spec's default when an access token
    // is issued) give them at userinfo, bound to the same subject.
    if (claimAt(claims, this.settings.rolesClaim) === undefined && config.serverMetadata().userinfo_endpoint)
      claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, id.sub)), ...claims };
    return {
      issuer: id.iss,
      subject: id.sub,
      name: operatorNameOf(claims, id.sub),
      claims,
      expiresAt: id.exp * 1000,
    };
  }

  async endSessionUrl(after: URL): Promise<URL | undefined> {
    const config = await this.configuration();
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return oidc.buildEndSessionUrl(config, {
      client_id: this.settings.clientId,
      post_logout_redirect_uri: after.href,
    });
  }
}
