/*
 * Working days of the banks (issue 29): the schedules and watches that wait for a bank (a payout
 * scheduled for the next working day, a reversal that comes days later) count working days, from
 * a calendar per account. Pure functions of the instant and the calendar: no clock, no I/O.
 *
 * The default calendar (docs/OPERATIONS.md, "Working days"): Sunday off, and the second and
 * fourth Saturday of each month off, as Indian banks have been since September 2015 (RBI, under
 * the Negotiable Instruments Act); NEFT settles Monday to Saturday (provider-facts.md, "Next
 * working day"). Bank holidays differ by state and year: none is assumed, the operator lists
 * them (BANK_CALENDAR, or per account in LONG_WAIT_ACCOUNTS). India keeps one offset all year
 * (UTC+05:30, no daylight saving), so a fixed offset is exact.
 */

/** A bank calendar: which local dates are not working days. */
export interface WorkingDayCalendar {
  /** Days of the week that are off, 0 = Sunday ... 6 = Saturday. */
  readonly weeklyOff: readonly number[];
  /** Saturdays of the month that are off, by their number in the month (1 to 5): e.g. [2, 4]. */
  readonly offSaturdays: readonly number[];
  /** Bank holidays, local dates `YYYY-MM-DD`. */
  readonly holidays: readonly string[];
  /** The banks' offset from UTC in minutes (India: 330). */
  readonly utcOffsetMinutes: number;
}

/** Sunday and the second and fourth Saturday off, no holidays listed, Indian Standard Time. */
export const DEFAULT_CALENDAR: WorkingDayCalendar = {
  weeklyOff: [0],
  offSaturdays: [2, 4],
  holidays: [],
  utcOffsetMinutes: 330,
};

const DAY_MS = 86_400_000;

/** The local midnight (as an instant) of the local date `at` falls on. */
function localMidnight(at: Date, cal: WorkingDayCalendar): number {
  const offset = cal.utcOffsetMinutes * 60_000;
  const local = at.getTime() + offset;
  return local - (((local % DAY_MS) + DAY_MS) % DAY_MS) - offset;
}

/** Whether the local date `at` falls on is a working day of the calendar. */
export function isWorkingDay(at: Date, cal: WorkingDayCalendar = DEFAULT_CALENDAR): boolean {
  // A UTC Date shifted by the offset: its UTC fields are the local date's.
  const local = new Date(at.getTime() + cal.utcOffsetMinutes * 60_000);
  const weekday = local.getUTCDay();
  if (cal.weeklyOff.includes(weekday)) return false;
  if (weekday === 6 && cal.offSaturdays.includes(Math.floor((local.getUTCDate() - 1) / 7) + 1)) return false;
  return !cal.holidays.includes(local.toISOString().slice(0, 10));
}

/**
 * The start (local midnight) of the first working day after the local date of `from`: where a
 * payout "scheduled for the next working day" goes to its bank.
 */
export function nextWorkingDay(from: Date, cal: WorkingDayCalendar = DEFAULT_CALENDAR): Date {
  let day = localMidnight(from, cal);
  // A year of days off in a row is a misconfigured calendar, not a bank.
  for (let i = 0; i < 366; i++) {
    day += DAY_MS;
    if (isWorkingDay(new Date(day + 12 * 3_600_000), cal)) return new Date(day);
  }
  throw new Error('the bank calendar has no working day in a year');
}

/**
 * `n` working days after `from`, at the same local time of day: each day counted is a working
 * day (the days off in between are skipped). n = 0 is `from` itself.
 */
export function addWorkingDays(from: Date, n: number, cal: WorkingDayCalendar = DEFAULT_CALENDAR): Date {
  if (!Number.isInteger(n) || n < 0) throw new Error(`working days must be a whole number >= 0, not ${n}`);
  const timeOfDay = from.getTime() - localMidnight(from, cal);
  let at = from;
  for (let left = n; left > 0; left--) at = nextWorkingDay(at, cal);
  return n === 0 ? from : new Date(at.getTime() + timeOfDay);
}
