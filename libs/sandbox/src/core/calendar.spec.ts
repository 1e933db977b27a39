import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CALENDAR, isWorkingDay, nextWorkingDayOpening } from './calendar.js';

const ist = (s: string): number => Date.parse(`${s}+05:30`);

describe('bank calendar', () => {
  it('weekends are closed by default', () => {
    assert.equal(isWorkingDay(DEFAULT_CALENDAR, '2026-11-27'), true); // Friday
    assert.equal(isWorkingDay(DEFAULT_CALENDAR, '2026-11-28'), false); // Saturday
    assert.equal(isWorkingDay(DEFAULT_CALENDAR, '2026-11-29'), false); // Sunday
  });

  it('a Friday evening transfer settles on Monday 09:00 India time', () => {
    assert.equal(
      nextWorkingDayOpening(DEFAULT_CALENDAR, ist('2026-11-27T20:00:00')),
      ist('2026-11-30T09:00:00'),
    );
    assert.equal(
      nextWorkingDayOpening(DEFAULT_CALENDAR, ist('2026-11-28T01:00:00')),
      ist('2026-11-30T09:00:00'),
    );
  });

  it('a holiday on Monday moves it to Tuesday', () => {
    const cal = { ...DEFAULT_CALENDAR, holidays: ['2026-11-30'] };
    assert.equal(nextWorkingDayOpening(cal, ist('2026-11-27T20:00:00')), ist('2026-12-01T09:00:00'));
  });

  it('the India day counts, not the UTC one', () => {
    // 2026-11-27 23:30 UTC is Saturday 05:00 in India.
    assert.equal(
      nextWorkingDayOpening(DEFAULT_CALENDAR, Date.parse('2026-11-27T23:30:00Z')),
      ist('2026-11-30T09:00:00'),
    );
  });
});
