/**
 * A check that needs a tool this machine may lack (Debian's chromium for the browser tests,
 * promtool for the alert rules): skipped, saying why, where the tool is missing, so a developer's
 * machine without root can still run `npm test`. Under `CI=true` a check that cannot run is not
 * a pass: the test fails with the same reason instead of being skipped.
 */
export function skipUnless(present: boolean, reason: string): false | string {
  if (present) return false;
  if (process.env['CI'] === 'true') {
    throw new Error(`${reason} (CI=true: a check that cannot run fails instead of being skipped)`);
  }
  return reason;
}
