import pg from 'pg';
import { ACCOUNT_MIN_DIGITS, maskDigitRuns } from '#observability';

/**
 * SQLSTATE classes that say the database (or our SQL) cannot work right now, whatever the
 * message: connection, unsupported feature, transaction state, authorisation, cursors and
 * savepoints, serialisation or deadlock, missing objects or privileges, resources, locks,
 * operator intervention, system, snapshot, configuration, foreign-data and internal errors. A
 * batch that fails this way is delivered again; dead-lettering its messages would lose good ones.
 */
const SYSTEMIC = new Set([
  ...['08', '0A', '25', '26', '28', '2D', '34', '3B', '3D', '3F', '40', '42'],
  ...['53', '55', '57', '58', '72', 'F0', 'HV', 'XX'],
]);

export interface Refusal {
  readonly code: string;
  /** Postgres's message (never its `detail`, which quotes the row), digit runs masked. */
  readonly message: string;
}

/**
 * Whether the database refused this data (a value out of range, a character it cannot store, a
 * constraint, a trigger), as opposed to being unable to work: only the former is the message's fault.
 */
export function refusalOf(e: unknown): Refusal | undefined {
  if (!(e instanceof pg.DatabaseError) || typeof e.code !== 'string') return undefined;
  if (SYSTEMIC.has(e.code.slice(0, 2))) return undefined;
  return { code: e.code, message: maskDigitRuns(e.message, ACCOUNT_MIN_DIGITS).slice(0, 300) };
}
