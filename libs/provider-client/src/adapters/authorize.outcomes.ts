import { type LegacyOutcomeTable } from '../core/legacy-classify.js';

/**
 * Authorize answers. Every failure here is configuration (credentials, source address, account
 * enablement) except rate limiting and server errors; none of them is worth an automatic retry.
 */
export const authorizeOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Token generated' },
  {
    status: 'ERROR',
    subCode: 401,
    outcome: 'fatal-config',
    http: 401,
    meaning: 'Invalid clientId and clientSecret combination',
  },
  {
    status: 'ERROR',
    subCode: 403,
    message: 'ip not whitelisted',
    outcome: 'fatal-config',
    http: 403,
    meaning: 'IP not whitelisted',
  },
  {
    status: 'ERROR',
    subCode: 403,
    message: 'not enabled',
    outcome: 'fatal-config',
    http: 403,
    meaning: 'APIs not enabled for the account',
  },
  {
    status: 'ERROR',
    subCode: 403,
    outcome: 'fatal-config',
    http: 403,
    meaning: 'Authorize refused (signature or source address)',
  },
  { status: 'ERROR', subCode: 429, outcome: 'retry-safe', http: 429, meaning: 'Too many requests' },
  { status: 'ERROR', subCode: 520, outcome: 'unknown', http: 520, meaning: 'Unknown error' },
];
