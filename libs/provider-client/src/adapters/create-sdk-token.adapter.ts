import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { writeJson } from '../core/decimal.js';
import { check, firstRefusal, required, type FieldRule } from '../core/field-rules.js';
import { classifyV2 } from '../core/v2-classify.js';
import { createSdkTokenOutcomes } from './create-sdk-token.outcomes.js';

export interface CreateSdkTokenRequest {
  readonly appId: string;
  /** `VKYC` for video KYC. */
  readonly product: string;
  readonly metadata: Readonly<Record<string, string | number | boolean>>;
  readonly authenticatedUser: { readonly identifierType: string; readonly identifierValue: string | number };
}

/** The access token is a secret: it lives only here, never in diagnostics or logs. */
export interface SdkToken {
  readonly accessToken: string;
  /** As sent: `YYYY-MM-DD HH:MM:SS <zone>`. */
  readonly expiresAt: string;
}

const rules: readonly FieldRule<CreateSdkTokenRequest>[] = [
  required((r) => r.appId, 'invalid_request', 'app_id is required'),
  required((r) => r.product, 'invalid_request', 'product is required'),
  check(
    (r) => typeof r.metadata === 'object' && r.metadata !== null,
    'invalid_request',
    'metadata is required',
  ),
  check(
    (r) => Boolean(r.authenticatedUser?.identifierType),
    'invalid_request',
    'authenticated_user is required',
  ),
];

const schema = z.object({ access_token: z.string().min(1), expires_at: z.string() });

export const createSdkTokenAdapter: EndpointAdapter<CreateSdkTokenRequest, SdkToken> = {
  name: 'createSdkToken',
  method: 'POST',
  path: '/verification/oauth/token',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, rules),
  build: (r) => ({
    body: writeJson({
      app_id: r.appId,
      product: r.product,
      metadata: { ...r.metadata },
      authenticated_user: {
        identifier_type: r.authenticatedUser.identifierType,
        identifier_value: r.authenticatedUser.identifierValue,
      },
    }),
  }),
  classify: (answer) =>
    classifyV2(createSdkTokenOutcomes, answer, (body) => {
      const p = schema.safeParse(body);
      return p.success
        ? { data: { accessToken: p.data.access_token, expiresAt: p.data.expires_at }, outcome: 'success' }
        : undefined;
    }),
};
