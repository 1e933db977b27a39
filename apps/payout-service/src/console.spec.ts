import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAYOUT_KIND_NAMES, PAYOUT_STATUSES, PROVIDER_SUB_STATES } from '#contracts';
import { CONSOLE_CSP, CONSOLE_DIR, loadConsoleAssets } from './console.controller.js';

describe('web console files', () => {
  it('serves only html, js, css and svg files of the folder itself, read once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'console-assets-'));
    try {
      await writeFile(join(dir, 'index.html'), '<!doctype html>');
      await writeFile(join(dir, 'app.js'), 'export {};');
      await writeFile(join(dir, 'tsconfig.json'), '{}');
      await writeFile(join(dir, '.env'), 'SECRET=1');
      await mkdir(join(dir, 'sub.js'));
      const assets = loadConsoleAssets(dir);
      assert.deepEqual([...assets.keys()].sort(), ['app.js', 'index.html']);
      assert.equal(assets.get('app.js')?.type, 'text/javascript; charset=utf-8');
      assert.match(assets.get('index.html')?.etag ?? '', /^"[A-Za-z0-9_-]{22}"$/);
      assert.equal(loadConsoleAssets(join(dir, 'missing')).size, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the real folder has the page and its modules', () => {
    const names = [...loadConsoleAssets(CONSOLE_DIR).keys()];
    for (const n of ['index.html', 'app.js', 'api.js', 'dom.js', 'console.css'])
      assert.ok(names.includes(n), n);
  });

  it('the CSP allows only this origin and no HTML from strings', () => {
    for (const d of ["default-src 'none'", "script-src 'self'", "require-trusted-types-for 'script'"])
      assert.ok(CONSOLE_CSP.includes(d), d);
    assert.ok(!CONSOLE_CSP.includes('unsafe'), 'no unsafe-inline or unsafe-eval');
  });

  it("the search's statuses and kinds are the service's", async () => {
    const v = (await import(new URL('vocabulary.js', `file://${CONSOLE_DIR}`).href)) as {
      STATUSES: string[];
      KINDS: string[];
      SUB_STATES: string[];
    };
    assert.deepEqual([...v.STATUSES].sort(), [...PAYOUT_STATUSES].sort());
    assert.deepEqual([...v.KINDS].sort(), [...PAYOUT_KIND_NAMES].sort());
    assert.deepEqual([...v.SUB_STATES].sort(), [...PROVIDER_SUB_STATES].sort());
  });
});
