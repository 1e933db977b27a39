import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  addWorkingDays,
  DEFAULT_CALENDAR,
  isWorkingDay,
  nextWorkingDay,
  type WorkingDayCalendar,
} from './working-days.js';

// Dates below are read off a 2026 calendar by hand: 1 Nov 2026 is a Sunday, so the Saturdays of
// November are the 7th (1st), 14th (2nd), 21st (3rd) and 28th (4th).
const ist = (local: string): Date => new Date(`${local}+05:30`);

describe('working days (default calendar: Sunday, 2nd and 4th Saturday off, IST)', () => {
  it('knows the days off', () => {
    assert.equal(isWorkingDay(ist('2026-11-02T10:00:00')), true, 'Monday');
    assert.equal(isWorkingDay(ist('2026-11-01T10:00:00')), false, 'Sunday');
    assert.equal(isWorkingDay(ist('2026-11-07T10:00:00')), true, 'first Saturday');
    assert.equal(isWorkingDay(ist('2026-11-14T10:00:00')), false, 'second Saturday');
    assert.equal(isWorkingDay(ist('2026-11-21T10:00:00')), true, 'third Saturday');
    assert.equal(isWorkingDay(ist('2026-11-28T10:00:00')), false, 'fourth Saturday');
  });

  it('reads the local date, not the UTC one', () => {
    // 2026-11-01T20:00Z is Monday 01:30 in India.
    assert.equal(isWorkingDay(new Date('2026-11-01T20:00:00Z')), true);
    // 2026-11-01T18:00Z is Sunday 23:30 in India.
    assert.equal(isWorkingDay(new Date('2026-11-01T18:00:00Z')), false);
  });

  it('the next working day skips a weekend of Saturday (2nd) and Sunday', () => {
    // Friday 13 Nov, 16:00 -> Monday 16 Nov, local midnight.
    assert.equal(
      nextWorkingDay(ist('2026-11-13T16:00:00')).toISOString(),
      ist('2026-11-16T00:00:00').toISOString(),
    );
    // Friday 6 Nov -> Saturday 7 Nov (the first Saturday works).
    assert.equal(
      nextWorkingDay(ist('2026-11-06T23:59:00')).toISOString(),
      ist('2026-11-07T00:00:00').toISOString(),
    );
  });

  it('adds working days at the same local time, over days off and holidays', () => {
    const cal: WorkingDayCalendar = { ...DEFAULT_CALENDAR, holidays: ['2026-11-16'] };
    // Thursday 12 Nov 11:00 + 2 working days: Fri 13, (Sat 14 off, Sun 15 off, Mon 16 holiday) Tue 17.
    assert.equal(
      addWorkingDays(ist('2026-11-12T11:00:00'), 2, cal).toISOString(),
      ist('2026-11-17T11:00:00').toISOString(),
    );
    assert.equal(
      addWorkingDays(ist('2026-11-12T11:00:00'), 0, cal).toISOString(),
      ist('2026-11-12T11:00:00').toISOString(),
    );
    // From a day off (Sunday 15 Nov, 09:00) one working day is Tuesday 17 (Monday is a holiday).
    assert.equal(
      addWorkingDays(ist('2026-11-15T09:00:00'), 1, cal).toISOString(),
      ist('2026-11-17T09:00:00').toISOString(),
    );
  });

  it('another calendar: Saturday and Sunday off, UTC', () => {
    const cal: WorkingDayCalendar = {
      weeklyOff: [0, 6],
      offSaturdays: [],
      holidays: [],
      utcOffsetMinutes: 0,
    };
    assert.equal(isWorkingDay(new Date('2026-11-07T10:00:00Z'), cal), false);
    assert.equal(
      nextWorkingDay(new Date('2026-11-06T10:00:00Z'), cal).toISOString(),
      '2026-11-09T00:00:00.000Z',
    );
  });

  it('refuses a calendar without working days and a bad count', () => {
    const never: WorkingDayCalendar = { ...DEFAULT_CALENDAR, weeklyOff: [0, 1, 2, 3, 4, 5, 6] };
    assert.throws(() => nextWorkingDay(new Date(), never), /no working day/);
    assert.throws(() => addWorkingDays(new Date(), -1), /whole number/);
  });
});
