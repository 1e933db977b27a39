/**
 * When to look next, from how many checks a row has had. Past the end of the schedule the row
 * needs a person: REQUIRES_ATTENTION (never silently failed, never polled forever). (The mapping
 * of the provider's statuses lives in the connector.)
 */
export function nextCheckDelay(schedule: readonly number[], checksSoFar: number): number | undefined {
  return schedule[checksSoFar];
}

export function parseSchedule(spec: string): number[] {
  const out = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^(\d+)(ms|s|m|h)?$/.exec(s);
      if (!m) throw new Error(`bad schedule entry ${JSON.stringify(s)}: use e.g. 30s, 2m, 1h`);
      const n = Number(m[1]);
      const unit = m[2] ?? 'ms';
      return n * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : unit === 's' ? 1_000 : 1);
    });
  if (out.length === 0) throw new Error('the schedule needs at least one entry');
  return out;
}
