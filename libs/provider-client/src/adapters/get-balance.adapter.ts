import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { dataDecoder } from './legacy-decoders.js';
import { getBalanceOutcomes } from './get-balance.outcomes.js';

/**
 * Nothing to send: the account is the call's (its bearer token). The v1.2 path's optional
 * `paymentInstrumentId` is not used (the service reads the account's whole balance).
 */
export type GetBalanceRequest = Readonly<Record<string, never>>;

/** A balance as the provider writes it: a decimal string (a ledger balance may be negative). */
const BALANCE_PATTERN = /^-?\d{1,13}(\.\d{1,2})?$/;

/**
 * The provider's examples write both balances as decimal strings. A JSON number is taken only when
 * its text is a decimal of at most 2 places (JSON.parse keeps such a value exact up to 13 digits);
 * anything else is not a balance and the answer is unreadable (`unknown`).
 */
const balance = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => BALANCE_PATTERN.test(v));

const schema = z.object({ balance, availableBalance: balance });

/** `data` of Get Balance: the ledger balance and the available balance (ledger minus pending). */
export interface ProviderBalance {
  /** The ledger balance, exact decimal as the provider wrote it. */
  readonly balance: string;
  /** The ledger balance minus the provider's pending transfers, exact decimal. */
  readonly availableBalance: string;
}

/**
 * GET /payout/v1/getBalance (bearer). An account on the v2 API reads it here too, after the v1
 * authorize: the provider's v2 Get Balance page points to this path (provider-facts.md, "Long
 * waits, balance and approvals"). Rate: about 3000 a minute per account (`balance` class).
 */
export const getBalanceAdapter: EndpointAdapter<GetBalanceRequest, ProviderBalance> = {
  name: 'getBalance',
  method: 'GET',
  path: '/payout/v1/getBalance',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'balance',
  validate: () => undefined,
  build: () => ({}),
  classify: (answer) => classifyLegacy(getBalanceOutcomes, answer, dataDecoder(schema)),
};
