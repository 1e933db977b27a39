import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chaosNotHappened, type ChaosAsked, type FaultView, type StepRecord } from './happened.js';

/** The chaos run's accounting of its own chaos: each way a step can fail to happen is seen. */
const asked: ChaosAsked = { kill: 2, broker: 1, postgres: 1, rolling: 0, faultRate: 0.2 };
const KINDS = ['loseAnswer', 'http5xx', 'hang'];
const ok = (step: StepRecord['step']): StepRecord => ({ step, happened: true, detail: 'seen' });
const allSteps = [ok('kill'), ok('kill'), ok('broker'), ok('postgres')];
const fault = (over: Partial<FaultView> = {}): FaultView => ({
  account: 'default',
  mode: { rate: 0.2, kinds: KINDS },
  calls: 1000,
  injected: { loseAnswer: 70, http5xx: 65, hang: 66 },
  ...over,
});

describe('chaos accounting (what was asked against what happened)', () => {
  it('everything asked happened: no violation', () => {
    assert.deepEqual(chaosNotHappened(asked, allSteps, [fault()]), []);
  });

  it('a kill that failed (logged and skipped before) fails the run', () => {
    const v = chaosNotHappened(
      asked,
      [ok('kill'), { step: 'kill', happened: false, detail: 'sabotaged' }, ok('broker'), ok('postgres')],
      [fault()],
    );
    assert.equal(v.length, 1);
    assert.match(v[0] ?? '', /^kill: asked 2, happened 1 \(sabotaged\)/);
  });

  it('a step never tried (the loop ended early) fails the run', () => {
    const v = chaosNotHappened(asked, [ok('kill'), ok('broker'), ok('postgres')], [fault()]);
    assert.match(v[0] ?? '', /^kill: asked 2, happened 1; 1 never tried/);
  });

  it('a broker restart not seen down, and a Postgres restart not seen up, fail the run', () => {
    const v = chaosNotHappened(
      asked,
      [
        ok('kill'),
        ok('kill'),
        { step: 'broker', happened: false, detail: 'port still open after stop' },
        { step: 'postgres', happened: false, detail: 'same postmaster start time' },
      ],
      [fault()],
    );
    assert.deepEqual(
      v.map((x) => x.split(':')[0]),
      ['broker', 'postgres'],
    );
  });

  it('faults: mode off at the sandbox, a different rate, too few injected, a kind never injected', () => {
    assert.match(chaosNotHappened(asked, allSteps, [fault({ mode: null })])[0] ?? '', /fault mode off/);
    assert.match(
      chaosNotHappened(asked, allSteps, [fault({ mode: { rate: 0.05, kinds: KINDS } })])[0] ?? '',
      /holds rate 0.05, asked 0.2/,
    );
    assert.match(
      chaosNotHappened(asked, allSteps, [
        fault({ injected: { loseAnswer: 40, http5xx: 40, hang: 40 } }),
      ])[0] ?? '',
      /120 injected of 1000 initiations/,
    );
    assert.match(
      chaosNotHappened(asked, allSteps, [fault({ injected: { loseAnswer: 100, http5xx: 100 } })])[0] ?? '',
      /never injected hang/,
    );
    assert.match(
      chaosNotHappened(asked, allSteps, [fault({ calls: 0, injected: {} })])[0] ?? '',
      /no initiation/,
    );
  });

  it('faults asked at rate 0: nothing is required of the sandbox', () => {
    assert.deepEqual(chaosNotHappened({ ...asked, faultRate: 0 }, allSteps, [fault({ mode: null })]), []);
  });

  it('few calls: a kind may be missing, the total still has a floor of one', () => {
    const few = fault({ calls: 20, injected: { hang: 3 } });
    assert.deepEqual(chaosNotHappened(asked, allSteps, [few]), []);
    assert.match(
      chaosNotHappened(asked, allSteps, [fault({ calls: 20, injected: {} })])[0] ?? '',
      /0 injected/,
    );
  });
});
