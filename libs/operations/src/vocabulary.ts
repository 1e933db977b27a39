import { PAYOUT_KIND_NAMES, PAYOUT_STATUSES } from '#contracts';

/** What a search may filter on: payout statuses (batch entries use the same names) and kinds. */
export const PAYOUT_STATUSES_LIST: readonly string[] = PAYOUT_STATUSES;
export const PAYOUT_KINDS_LIST: readonly string[] = PAYOUT_KIND_NAMES;
