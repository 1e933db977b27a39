import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless } from '#test-support';

// npm test's browser and rule checks: skipped with a reason on a machine without the tool, a
// failure under CI=true (issue 31: a skipped check must not pass CI unseen).
describe('a check whose tool is missing', () => {
  const saved = process.env['CI'];
  afterEach(() => {
    if (saved === undefined) delete process.env['CI'];
    else process.env['CI'] = saved;
  });

  it('runs where the tool is present, CI or not', () => {
    process.env['CI'] = 'true';
    assert.equal(skipUnless(true, 'chromium is missing'), false);
    delete process.env['CI'];
    assert.equal(skipUnless(true, 'chromium is missing'), false);
  });

  it('is skipped with its reason outside CI', () => {
    delete process.env['CI'];
    assert.equal(skipUnless(false, 'chromium is missing'), 'chromium is missing');
  });

  it('fails under CI=true, with the reason', () => {
    process.env['CI'] = 'true';
    assert.throws(() => skipUnless(false, 'chromium is missing'), /chromium is missing \(CI=true/);
  });
});
