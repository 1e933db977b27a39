import { BATCH_STATUSES, PAYOUT_STATUSES, PROVIDER_SUB_STATES } from '#contracts';
import { COMMON_LEGACY_ROWS } from '../core/legacy-classify.js';
import { WEBHOOK_EVENT_STATUS, WEBHOOK_EVENT_SUB_STATE } from '../core/status-mapping.js';
import { TRANSFER_STATUSES } from '../core/transfer-statuses.js';
import { COMMON_V2_ROWS } from '../core/v2-classify.js';
import { REGISTERED_ENDPOINTS } from '../endpoints/adapter-registry.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook-meaning.js';

/*
 * The provider's own words (issue 31), derived from the connector's tables, never listed by hand:
 * the architecture check (scripts/provider-words.ts) fails when one appears as a string literal in
 * libs/pipeline, whose code speaks only the service's terms.
 */

/** The diagnostics fields that hold the provider's wire codes; the service reads `evidence`. */
export const WIRE_CODE_FIELDS = ['status', 'subCode', 'code'] as const;

/** Words the service owns even where the provider uses them too (its statuses and sub-states). */
const SERVICE_WORDS: ReadonlySet<string> = new Set<string>([
  ...PAYOUT_STATUSES,
  ...BATCH_STATUSES,
  ...PROVIDER_SUB_STATES,
]);

/**
 * Every provider event name, transfer status word and error code the connector knows: the
 * webhook events it reads, the statuses (and v2 status codes) of TRANSFER_STATUSES, every
 * registered endpoint's outcome table's status words and v2 error codes. Less the service's own
 * words (a payout is SUCCESS in the service's terms too). Numeric v1 codes are left out: a
 * number says nothing by itself.
 */
export function providerVocabulary(): ReadonlySet<string> {
  const words = new Set<string>([
    ...WEBHOOK_EVENT_TYPES,
    ...Object.keys(WEBHOOK_EVENT_STATUS),
    ...Object.keys(WEBHOOK_EVENT_SUB_STATE),
    ...Object.keys(TRANSFER_STATUSES).flatMap((k) => k.split('/')),
  ]);
  const tables = [COMMON_LEGACY_ROWS, COMMON_V2_ROWS, ...REGISTERED_ENDPOINTS.map((e) => e.outcomes)];
  for (const table of tables) {
    for (const row of table) {
      if ('status' in row) words.add(row.status);
      // v2 codes of a batch's entries are written `transfers[i].<code>`: the code is the word.
      if ('code' in row && row.code !== undefined) words.add(row.code.replace(/^.*\]\./, ''));
    }
  }
  for (const w of SERVICE_WORDS) words.delete(w);
  return words;
}
