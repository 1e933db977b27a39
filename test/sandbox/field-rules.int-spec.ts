import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type LegacyRow, type V2Row } from '#sandbox';
import { FIELD_RULES } from './field-rules/index.js';
import { assertRow, assertV2Row, Harness, type Res } from './harness.js';

const isV2 = (row: LegacyRow | V2Row): row is V2Row => 'http' in row;

function assertPasses(res: Res, row: LegacyRow | V2Row, label: string): void {
  const body = JSON.stringify(res.body);
  if (isV2(row)) {
    assert.notEqual(res.body.code, row.code, `${label} ${body}`);
  } else {
    assert.ok(res.body.status !== 'ERROR' || res.body.message !== row.message, `${label} ${body}`);
  }
}

/** Every field rule of the interface document: the edge value passes, one past it fails. */
describe('sandbox field rules', () => {
  let h: Harness;
  let passed = 0;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => {
    console.log(`\nSandbox field rules covered: ${passed}/${FIELD_RULES.length}`);
    await h.close();
  });

  for (const r of FIELD_RULES) {
    it(r.rule, async () => {
      await h.fresh();
      assertPasses(await r.send(h, r.ok), r.row, `${r.rule} ok=${JSON.stringify(r.ok)}`);
      const bad = await r.send(h, r.bad);
      if (isV2(r.row)) assertV2Row(bad, r.row, r.rule);
      else assertRow(bad, r.row, r.rule);
      passed += 1;
    });
  }
});
