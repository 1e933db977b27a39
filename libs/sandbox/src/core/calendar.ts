import { istDay, istDayStart } from './clock.js';

/**
 * The banks' calendar the sandbox schedules by: weekend days and bank holidays (India days).
 * A transfer scheduled for the next working day settles at `openingHour` India time of the
 * first working day after the day it was made.
 */
export interface BankCalendar {
  /** Days of the week banks are closed, 0 = Sunday ... 6 = Saturday. */
  readonly weekendDays: readonly number[];
  /** Bank holidays, `yyyy-mm-dd` India days. */
  readonly holidays: readonly string[];
}

export const DEFAULT_CALENDAR: BankCalendar = { weekendDays: [0, 6], holidays: [] };

const DAY_MS = 24 * 60 * 60_000;
/** Banks open (the scheduled transfer is sent) at 09:00 India time. */
export const OPENING_HOUR = 9;

/** Whether banks work on this India day (`yyyy-mm-dd`). */
export function isWorkingDay(calendar: BankCalendar, day: string): boolean {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  return !calendar.weekendDays.includes(weekday) && !calendar.holidays.includes(day);
}

/** 09:00 India time of the first working day after the India day holding `ms`. */
export function nextWorkingDayOpening(calendar: BankCalendar, ms: number): number {
  let start = istDayStart(istDay(ms));
  // A calendar with every day closed would never open: give up after a year (then the next day).
  for (let i = 0; i < 366; i += 1) {
    start += DAY_MS;
    if (isWorkingDay(calendar, istDay(start))) break;
  }
  return start + OPENING_HOUR * 60 * 60_000;
}
