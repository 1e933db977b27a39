import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Random, type PlannedCommand } from './generate.js';
import { chaosNotHappened } from './happened.js';
import { entryReuseViolations, lifecycleOf, lifecycleOutcomes, withEntryIdReuse } from './lifecycle.js';

const status = (s: string) => ({ data: { status: s } });

describe('chaos lifecycle faults (issue 29)', () => {
  it('--lifecycle: a list, all, or nothing; an unknown name is refused', () => {
    assert.deepEqual([...lifecycleOf('')], []);
    assert.deepEqual([...lifecycleOf('approval,late-reversal')], ['approval', 'late-reversal']);
    assert.equal(lifecycleOf('all').size, 6);
    assert.throws(() => lifecycleOf('approval,typo'), /unknown lifecycle fault typo/);
    // Off: direct transfers draw from today's outcomes only (the same commands for the same seed).
    assert.deepEqual(lifecycleOutcomes(new Set()), []);
  });

  it('entry-id-reused: a single payout with an entry id follows its batch, and the key is listed', async () => {
    const batch = {
      account: 'default',
      identity: 'B1',
      kind: 'batch_transfer',
      label: 'batch/UPI',
      value: {},
      secrets: [],
      entries: ['B1E0', 'B1E1'],
    } as PlannedCommand;
    const other = { ...batch, identity: 'X', kind: 'direct_transfer', entries: [] } as PlannedCommand;
    const { commands, reused } = await withEntryIdReuse(
      [batch, other],
      new Random(1),
      async (account, id) => ({ ...other, account, identity: id, label: 'direct' }),
      1,
    );
    assert.deepEqual(
      commands.map((c) => c.identity),
      ['B1', commands[1]?.identity, 'X'],
    );
    assert.ok(['B1E0', 'B1E1'].includes(commands[1]?.identity ?? ''));
    assert.match(commands[1]?.label ?? '', /reuses-entry-of-B1$/);
    assert.deepEqual([...reused], [`default|${commands[1]?.identity}`]);
  });

  it('entry-id-reused: the side the provider refused as a repeat id never ends SUCCESS; the owner agrees with the provider', () => {
    const key = 'default|B1E0';
    const check = (entry: string, single: string, endpoint: string, provider: string) =>
      entryReuseViolations(
        new Set([key]),
        { last: new Map([[key, status(single)]]), lastItem: new Map([[key, status(entry)]]) },
        new Map([[key, { endpoint, status: provider }]]),
      );
    // The entry took the id and was paid; the single payout was refused: fine when it is not SUCCESS.
    assert.deepEqual(check('SUCCESS', 'FAILED', 'requestBatchTransfer', 'SUCCESS'), []);
    // Issue 29: the refused single payout published SUCCESS with the entry's UTR.
    assert.match(
      check('SUCCESS', 'SUCCESS', 'requestBatchTransfer', 'SUCCESS')[0] ?? '',
      /refused as a repeat id ended SUCCESS/,
    );
    // Issue 29: the entry's rejection applied to the single payout the provider then paid.
    assert.match(check('none', 'REJECTED', 'directTransfer', 'SUCCESS')[0] ?? '', /single payout disagrees/);
    assert.match(check('SUCCESS', 'none', 'directTransfer', 'NOT_APPLIED').join(), /never applied/);
    assert.deepEqual(check('REJECTED', 'REQUIRES_ATTENTION', 'batchTransferV2', 'REJECTED'), []);
  });

  it('--in-doubt-apply: asked, and the sandbox applied none (or does not say): the run fails', () => {
    const asked = { kill: 0, broker: 0, postgres: 0, rolling: 0, faultRate: 0.2, inDoubtApply: 0.5 };
    const view = {
      account: 'default',
      mode: { rate: 0.2, kinds: ['http5xx', 'subCode520', 'hang'] },
      calls: 600,
      injected: { http5xx: 40, subCode520: 40, hang: 40 },
    };
    assert.match(chaosNotHappened(asked, [], [view])[0] ?? '', /does not report appliedInDoubt/);
    assert.match(
      chaosNotHappened(asked, [], [{ ...view, appliedInDoubt: 0 }])[0] ?? '',
      /no in-doubt fault applied/,
    );
    assert.deepEqual(chaosNotHappened(asked, [], [{ ...view, appliedInDoubt: 55 }]), []);
    assert.deepEqual(chaosNotHappened({ ...asked, inDoubtApply: 0 }, [], [view]), []);
  });
});
