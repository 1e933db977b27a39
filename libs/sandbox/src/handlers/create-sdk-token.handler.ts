import { createHmac, randomBytes } from 'node:crypto';
import { V2_SDK_TOKEN as R } from '../tables/create-sdk-token.table.js';
import { failV2 } from '../tables/v2-common.table.js';
import { decodeV2Object, type V2Endpoint } from './v2-endpoint.js';

const KEY = randomBytes(32);
const TTL_MS = 15 * 60_000;
const IST_OFFSET_MS = 330 * 60_000;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v !== '');

/** POST /verification/oauth/token: SDK authentication token for the video-KYC product. */
export const createSdkToken: V2Endpoint = {
  id: 'createSdkToken',
  fields: ['app_id', 'product', 'metadata', 'authenticated_user'],
  method: 'POST',
  paths: ['/verification/oauth/token'],
  group: 'other',
  summary: 'Create SDK authentication token',
  table: R,
  handle({ world, body }) {
    const o = decodeV2Object(body, ['app_id', 'product', 'metadata', 'authenticated_user']);
    if (typeof o.app_id !== 'string' || o.app_id === '') failV2(R.appIdInvalid);
    if (o.product !== 'VKYC') failV2(R.productInvalid);
    if (!isObj(o.metadata) || !isScalar(o.metadata.vkyc_request_id)) failV2(R.metadataInvalid);
    const user = o.authenticated_user;
    if (!isObj(user) || typeof user.identifier_type !== 'string' || !isScalar(user.identifier_value)) {
      failV2(R.userInvalid);
    }
    const exp = world.clock.now() + TTL_MS;
    const payload = Buffer.from(
      JSON.stringify({ app_id: o.app_id, product: 'VKYC', exp: Math.floor(exp / 1000) }),
    ).toString('base64url');
    const head = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
    const sig = createHmac('sha256', KEY).update(`${head}.${payload}`).digest('base64url');
    const expiresAt = `${new Date(exp + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')} IST`;
    return { access_token: `${head}.${payload}.${sig}`, expires_at: expiresAt };
  },
};
