import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { authorizeOutcomes } from './authorize.outcomes.js';

/** The bearer token. Internal: only the token store sees it; callers get `expiresAt`. */
export interface AuthorizeData {
  readonly token: string;
  /** Unix seconds. */
  readonly expiresAt: number;
}

const dataSchema = z.object({
  token: z.string().min(1),
  expiry: z.union([z.number(), z.string().regex(/^\d+$/)]).transform((v) => Number(v)),
});

/** No body: credentials (and the signature) travel in headers the executor adds. */
export const authorizeAdapter: EndpointAdapter<void, AuthorizeData> = {
  name: 'authorize',
  method: 'POST',
  path: '/payout/v1/authorize',
  host: 'payout',
  auth: 'client-credentials',
  rateClass: 'authorize',
  validate: () => undefined,
  build: () => ({}),
  // The official SDKs read data.token without checking status and crash on an error body; here
  // a SUCCESS without a token is `unknown` and an error body is a typed result.
  classify: (answer) =>
    classifyLegacy(authorizeOutcomes, answer, (env) => {
      const p = dataSchema.safeParse(env.data);
      return p.success ? { data: { token: p.data.token, expiresAt: p.data.expiry } } : undefined;
    }),
};
